package dev.spacebench.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The built-in baseline ({@code cua-0.15.0}, put in by a migration) cannot be deleted: a DELETE
 * once removed it for good, and {@code bench --baseline cua-0.15.0} stopped working. One imported
 * here still can be.
 */
class BuiltInBaselineTest extends AppTestSupport {

    @Test
    void theBuiltInBaselineIsRefusedWithAConflictAndAnImportedOneIsDeleted() throws Exception {
        HttpResponse<String> refused = delete("/api/baselines/cua-0.15.0");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
        assertThat(refused.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        assertThat(json(refused).get("detail").asString()).contains("'cua-0.15.0' is built in").contains("cannot be deleted");
        assertThat(get("/api/baselines/cua-0.15.0").statusCode()).as("the built-in baseline after the DELETE").isEqualTo(200);

        HttpResponse<String> imported = post("/api/baselines/import?name=deletable-one",
                "{\"schema\":\"spacebench.result/v1\",\"metrics\":[{\"metric\":\"exec.noop\",\"n\":5,\"p50Ns\":1000}]}");
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);
        assertThat(delete("/api/baselines/deletable-one").statusCode()).isEqualTo(204);
        assertThat(get("/api/baselines/deletable-one").statusCode()).isEqualTo(404);
    }
}
