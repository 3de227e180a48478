package dev.spacebench.publish.export;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.RunService;
import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * A new format is one bean: with one more {@link RunExporter} in the context (and nothing else
 * changed) the REST API serves it, the run's links, its page and page.md list it.
 */
@Import(RunExporterPluginTest.MetricsTxt.class)
class RunExporterPluginTest extends AppTestSupport {

    /** metrics.txt: the run's metric ids, one a line, with their n. */
    @TestConfiguration
    static class MetricsTxt {
        @Bean
        RunExporter metricsTxt(RunService runs) {
            return new RunExporter() {
                @Override
                public String id() {
                    return "metrics.txt";
                }

                @Override
                public MediaType mediaType() {
                    return MediaType.parseMediaType("text/plain;charset=UTF-8");
                }

                @Override
                public String description() {
                    return "the metric ids with their n";
                }

                @Override
                public void write(long runId, ExportFile file, OutputStream out) throws IOException {
                    StringBuilder text = new StringBuilder();
                    for (MetricResult r : runs.results(runId)) {
                        text.append(r.getMetric()).append(' ').append(r.getN()).append('\n');
                    }
                    out.write(text.toString().getBytes(StandardCharsets.UTF_8));
                }
            };
        }
    }

    @Test
    void aNewExporterBeanIsServedAndListedEverywhere() throws Exception {
        HttpResponse<String> created = post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\"],"
                + "\"n\":4,\"warmups\":1,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long id = json(created).get("id").asLong();
        assertThat(awaitFinished(id, Duration.ofMinutes(2)).get("status").asString()).isEqualTo("SUCCEEDED");

        HttpResponse<String> served = get("/api/runs/" + id + "/metrics.txt");
        assertThat(served.statusCode()).isEqualTo(200);
        assertThat(served.headers().firstValue("Content-Type")).hasValue("text/plain;charset=UTF-8");
        // The plan: the Space's ready time once and its three parts, 4 no-op round trips, the Space's delete once.
        assertThat(served.body()).isEqualTo("space.ready 1\nspace.ready.create 1\nspace.ready.agent 1\nspace.ready.ping 1\n"
                + "exec.noop 4\nspace.delete 1\n");

        JsonNode downloads = json(get("/api/runs/" + id)).get("links").get("downloads");
        List<String> names = new ArrayList<>(downloads.propertyNames());
        assertThat(names).containsExactly("samples.csv", "result.json", "page.md", "bmf.json",
                "space.ready.hlog", "space.ready.create.hlog", "space.ready.agent.hlog", "space.ready.ping.hlog",
                "exec.noop.hlog", "space.delete.hlog", "metrics.txt");
        assertThat(downloads.get("metrics.txt").asString()).isEqualTo("/api/runs/" + id + "/metrics.txt");
        assertThat(downloads.get("exec.noop.hlog").asString()).isEqualTo("/api/runs/" + id + "/hlog/exec.noop.hlog");
        for (String name : names) {
            assertThat(get(downloads.get(name).asString()).statusCode()).as(name).isEqualTo(200);
        }

        String page = get("/runs/" + id).body();
        String list = page.substring(page.indexOf("id=\"downloads\""));
        assertThat(list).contains("<a href=\"/api/runs/" + id + "/metrics.txt\">metrics.txt</a>: <span>the metric ids with their n</span>");
        // page.md's links are relative to page.md itself (issue 11), so they hold in an exported folder too.
        assertThat(get("/api/runs/" + id + "/page.md").body())
                .contains("- [metrics.txt](metrics.txt)\n")
                .contains("- [bmf.json](bmf.json) (Bencher Metric Format)\n");

        assertThat(get("/api/runs/" + id + "/nothing.txt").statusCode()).isEqualTo(404);
    }
}
