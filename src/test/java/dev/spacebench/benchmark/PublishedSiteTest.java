package dev.spacebench.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.run.samples.RunSample;
import dev.spacebench.run.samples.RunSampleRepository;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * A published site shows what a reader needs to reproduce a run, not the publisher's file system:
 * no file of {@code /api/site.zip} names the data directory, the Spaces root, the temp directory,
 * the host's name or a pid, nor does a sample's error text in samples.csv; the stored run, which its owner
 * reads, keeps them all.
 */
class PublishedSiteTest extends AppTestSupport {

    @Autowired
    RunSampleRepository samples;

    private static final String PLAN = "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\",\"true\"],"
            + "\"n\":5,\"warmups\":1,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[{\"bytes\":65536,\"n\":2}],\"warmups\":0},"
            + "\"floor\":{\"enabled\":false}}}";

    @Test
    void theSiteCarriesNoHostPathPidOrHostNameWhileTheStoredRunKeepsThem() throws Exception {
        long id = json(post("/api/runs", PLAN)).get("id").asLong();
        assertThat(awaitFinished(id, Duration.ofSeconds(180)).get("status").asString()).isEqualTo("SUCCEEDED");
        HttpResponse<String> published = post("/api/benchmarks", "{\"slug\":\"published-site-paths\",\"runId\":" + id + "}");
        assertThat(published.statusCode()).as(published.body()).isEqualTo(201);

        // What the owner's result.json holds: the real values (the oracle for what must not leave).
        JsonNode stored = json(get("/api/runs/" + id + "/result.json")).get("environment");
        String spaceDir = stored.get("space").get("directory").asString();
        String spacePid = stored.get("space").get("pid").asString();
        String host = stored.get("host").get("hostname").asString();
        String spacesRoot = SPACES.toAbsolutePath().toString();
        assertThat(spaceDir).startsWith(spacesRoot + "/");
        assertThat(spacePid).matches("[0-9]+");
        assertThat(host).isNotBlank();

        // A failed sample's error text that names the Space's directory, as an exec's stderr or a file's path can. Written
        // into the run's stored samples here: this run had no failure, and which text a real one has is not what is tested.
        String error = "exit code 2: sh: cannot open " + spaceDir + "/work/missing: No such file";
        samples.save(new RunSample(id, "exec.true", 6, "measured", 1_000_000L, 0L, false, error));
        assertThat(get("/api/runs/" + id + "/samples.csv").body()).as("the owner's samples.csv").contains(error);

        Map<String, String> site = unzip(http.send(HttpRequest.newBuilder(uri("/api/site.zip")).build(),
                HttpResponse.BodyHandlers.ofByteArray()).body());
        assertThat(site).containsKeys("published-site-paths/index.html", "published-site-paths/result.json",
                "published-site-paths/page.md", "published-site-paths/samples.csv");
        String tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().toString();
        String appPid = Long.toString(ProcessHandle.current().pid());
        Pattern pids = Pattern.compile("(?<![\\w.])(" + spacePid + "|" + appPid + ")(?![\\w.])");
        for (Map.Entry<String, String> file : site.entrySet()) {
            String text = file.getValue();
            assertThat(text).as(file.getKey()).doesNotContain(DATA.toAbsolutePath().toString())
                    .doesNotContain(DATA.toRealPath().toString()).doesNotContain(spacesRoot).doesNotContain(tmp + "/");
            if (!file.getKey().endsWith(".csv") && !file.getKey().endsWith(".hlog") && !file.getKey().endsWith(".svg")) {
                // (Samples and plots are numbers; a pid could be one of them by chance.)
                assertThat(pids.matcher(text).find()).as("a pid in %s", file.getKey()).isFalse();
            }
        }
        // The host's name: where the environment names it, the site says <host>.
        JsonNode shown = JSON.readTree(site.get("published-site-paths/result.json")).get("environment");
        assertThat(shown.get("host").get("hostname").asString()).isEqualTo("<host>");
        assertThat(shown.get("worker").asString()).doesNotContain(host).contains("<host>");
        assertThat(shown.get("space").get("pid").asString()).isEqualTo("<pid>");
        assertThat(shown.get("space").get("directory").asString()).isEqualTo("<spaces>/" + Path.of(spaceDir).getFileName());
        assertThat(site.get("published-site-paths/samples.csv")).as("the published samples.csv")
                .contains("exec.true,6,measured,1000000,0,false,\"exit code 2: sh: cannot open <spaces>/" + Path.of(spaceDir).getFileName()
                        + "/work/missing: No such file\",,,")
                .startsWith("metric,iteration,phase,ns,bytes,ok,error,agent_ns,level,space_index,channel,block,seq,entry\n");
        assertThat(site.get("published-site-paths/samples.csv").lines().count()).as("every sample, and the header")
                .isEqualTo(get("/api/runs/" + id + "/samples.csv").body().lines().count());
        String page = site.get("published-site-paths/page.md");
        assertThat(page).contains("| Host | <host> |").doesNotContain("| Testbed | " + host + " |").doesNotContain("| Host | " + host + " |")
                .doesNotContain("hostname " + host).contains("| Space directory | <spaces>/" + Path.of(spaceDir).getFileName() + " |");
        assertThat(site.get("published-site-paths/index.html")).doesNotContain(">" + host + "<").contains("&lt;host&gt;");

        // The owner's own result still names everything.
        assertThat(json(get("/api/runs/" + id + "/result.json")).get("environment").get("space").get("directory").asString())
                .isEqualTo(spaceDir);
        assertThat(delete("/api/benchmarks/published-site-paths").statusCode()).isEqualTo(204);
    }

    private static Map<String, String> unzip(byte[] zip) throws Exception {
        Map<String, String> files = new LinkedHashMap<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                files.put(entry.getName(), new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        return files;
    }
}
