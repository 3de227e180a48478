package dev.spacebench.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.ChildApp;
import dev.spacebench.system.ApiToken;
import dev.spacebench.system.DataDirectory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.sql.Connection;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The app on a real PostgreSQL server (the {@code postgres} profile's driver and migrations): a
 * small run through REST, then the samples counted in the database itself, not through the app.
 */
@org.junit.jupiter.api.extension.ExtendWith(TestPostgres.Required.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class PostgresEndToEndTest {

    private static final TestPostgres DB = TestPostgres.create().orElse(null);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    // Not AppTestSupport: its H2 URL would win over this one (its property source is read last).
    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry registry) throws Exception {
        if (DB != null) {
            registry.add("spring.datasource.url", DB::url);
            registry.add("spring.datasource.username", DB::user);
            registry.add("spring.datasource.password", DB::password);
        }
        registry.add("spacebench.spaces.root", Files.createTempDirectory("spacebench-test-spaces-")::toString);
        registry.add("spacebench.worker.poll-interval-ms", () -> "200");
    }

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aRunIsMeasuredAndEverySampleIsInPostgres() throws Exception {
        // Not an H2 file: the token is in the default data directory (DataDirectory.DEFAULT).
        String token = Files.readString(DataDirectory.DEFAULT.resolve(ApiToken.FILE_NAME)).strip();
        JsonNode created = send(HttpRequest.newBuilder(uri("/api/runs")).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString("""
                {"space": {"kind": "process"},
                 "plan": {"exec": {"metrics": ["noop", "true"], "n": 40, "warmups": 2, "agentWarmupCalls": 10},
                          "files": {"sizes": [{"bytes": 1048576, "n": 2}, {"bytes": 3145728, "n": 2}], "warmups": 0},
                          "floor": {"enabled": false}}}""")));
        long id = created.get("id").asLong();
        JsonNode run = AppTestSupport.awaitRun(() -> send(HttpRequest.newBuilder(uri("/api/runs/" + id))), AppTestSupport::finished,
                Duration.ofMinutes(2), Duration.ofMillis(200), "run " + id + " did not finish within 2 minutes");
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("SUCCEEDED");

        try (Connection c = DB.connect()) {
            assertThat(c.getMetaData().getDatabaseProductName()).isEqualTo("PostgreSQL");
            // 2 × (40 measured + 2 warm-ups) exec, 2 sizes × 2 directions × 2, one ready, one delete
            assertThat(ChildApp.count(c, "SELECT count(*) FROM sample WHERE run_id = ?", id)).isEqualTo(2 * 42 + 8 + 2 + 3); // + ready's three parts
            assertThat(ChildApp.count(c, "SELECT count(*) FROM sample WHERE run_id = ? AND metric = 'exec.noop' AND phase = 'measured'", id))
                    .isEqualTo(40);
            assertThat(ChildApp.count(c, "SELECT count(*) FROM run WHERE id = ? AND status = 'SUCCEEDED'", id)).isEqualTo(1);
        }
        // The page reads back from PostgreSQL too.
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(uri("/runs/" + id)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
    }

    private JsonNode send(HttpRequest.Builder request) throws Exception {
        return JSON.readTree(http.send(request.build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
