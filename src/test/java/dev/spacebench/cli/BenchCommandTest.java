package dev.spacebench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.publish.Format;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code bench} run in this JVM: once in-process on a database of its own, once against the test
 * server through REST, and with bad usage. A run is a real run against a process Space.
 */
class BenchCommandTest extends AppTestSupport {

    private static final String TINY_PLAN = """
            {"exec": {"n": 12, "warmups": 1, "agentWarmupCalls": 20}, "files": {"sizes": [{"bytes": 65536, "n": 2}], "warmups": 0},
             "floor": {"enabled": false}}""";

    @TempDir
    Path temp;

    @Test
    void inProcessRunWritesTheFilesAndPrintsTheFiguresOfResultJson() throws Exception {
        Path plan = Files.writeString(temp.resolve("tiny.json"), TINY_PLAN);
        Path out = temp.resolve("out");
        String db = "jdbc:h2:file:" + temp.resolve("db").resolve("spacebench");
        Result result = bench("--plan", plan.toString(), "--out", out.toString(), "--db", db, "--kind", "process",
                "--baseline", "cua-0.15.0", "--threshold", "1000");

        assertThat(result.code).as(result.toString()).isZero();
        assertThat(result.stdout).contains("measuring in this process as worker bench@").contains("succeeded")
                .contains("check against baseline cua-0.15.0 (p50, threshold 1000.0): PASS");
        assertFilesAndTable(out, result.stdout);
        assertThat(JSON.readTree(Files.readString(out.resolve("check.json"))).get("verdict").asString()).isEqualTo("pass");
        JsonNode run = JSON.readTree(Files.readString(out.resolve("result.json"))).get("run");
        assertThat(run.get("status").asString()).isEqualTo("SUCCEEDED");
        // 1 ready and its 3 parts + 3 metrics × (1 + 12) + 2 × (upload + download) + 1 delete
        assertThat(run.get("samples").asLong()).isEqualTo(1 + 3 + 3 * 13 + 2 * 2 + 1);
    }

    @Test
    void serverRunGoesThroughRestWritesTheServersExportsAndAFailedCheckExits1() throws Exception {
        Path plan = Files.writeString(temp.resolve("tiny.json"), TINY_PLAN);
        Path out = temp.resolve("remote");
        Result result = bench("--plan", plan.toString(), "--out", out.toString(), "--server", "http://127.0.0.1:" + port + "/",
                "--baseline", "cua-0.15.0", "--threshold", "0.0001");

        assertThat(result.code).as(result.toString()).isEqualTo(1);
        assertThat(result.stdout).contains("measuring on http://127.0.0.1:" + port)
                .contains("check against baseline cua-0.15.0 (p50, threshold 1.0E-4): FAIL");
        assertFilesAndTable(out, result.stdout);
        long id = JSON.readTree(Files.readString(out.resolve("result.json"))).get("run").get("id").asLong();
        for (String name : List.of("result.json", "samples.csv", "page.md")) {
            assertThat(Files.readString(out.resolve(name))).as(name).isEqualTo(get("/api/runs/" + id + "/" + name).body());
        }
        String check = get("/api/runs/" + id + "/check?baseline=cua-0.15.0&threshold=1.0E-4&statistic=p50").body();
        assertThat(Files.readString(out.resolve("check.json"))).isEqualTo(check);
        assertThat(result.stdout).containsPattern("exec\\.sh_c +\\S+ \\S+ +878 µs +\\d+\\.\\d{3}  FAIL");
    }

    @Test
    void withoutServerItFindsTheServerRunningOnItsDatabaseAndGoesThroughItWithTheTokenFromTheDataDirectory() throws Exception {
        Path plan = Files.writeString(temp.resolve("tiny.json"), TINY_PLAN);
        Path out = temp.resolve("found");
        // The test app's database: the app holds it, and its data directory holds server.json and api-token.
        // Every test app context of this JVM shares that database and directory, and the one started
        // last recorded itself in server.json: bench must go through the server named there.
        Matcher recorded = Pattern.compile("http://127\\.0\\.0\\.1:\\d+").matcher(Files.readString(DATA.resolve("server.json")));
        assertThat(recorded.find()).isTrue();
        Result result = bench(Map.of(), "--plan", plan.toString(), "--out", out.toString(), "--kind", "process",
                "--db", "jdbc:h2:file:" + DATA.resolve("spacebench"));

        assertThat(result.code).as(result.toString()).isZero();
        assertThat(result.stdout.lines().findFirst().orElseThrow()).matches("run \\d+ queued; measuring on the server running at "
                + Pattern.quote(recorded.group() + " (found in " + DATA.resolve("server.json") + "), through its REST API"));
        long id = JSON.readTree(Files.readString(out.resolve("result.json"))).get("run").get("id").asLong();
        assertThat(json(get("/api/runs/" + id)).get("status").asString()).as("the run is the server's").isEqualTo("SUCCEEDED");
        assertThat(Files.readString(out.resolve("samples.csv"))).isEqualTo(get("/api/runs/" + id + "/samples.csv").body());
    }

    @Test
    void aServerRefusesBenchWithoutTheTokenAndBenchSaysWhatToDo() throws Exception {
        Path empty = Files.createDirectory(temp.resolve("no-token-here"));
        Result result = bench(Map.of(), "--plan", "quick", "--server", "http://127.0.0.1:" + port,
                "--db", "jdbc:h2:file:" + empty.resolve("spacebench"));
        assertThat(result.code).isEqualTo(2);
        assertThat(result.stderr).contains("refused the call (401): it needs the API token; set SPACEBENCH_API_TOKEN");
        Result wrong = bench(Map.of("SPACEBENCH_API_TOKEN", "not-the-token-of-this-server"), "--plan", "quick",
                "--server", "http://127.0.0.1:" + port);
        assertThat(wrong.code).isEqualTo(2);
        assertThat(wrong.stderr).contains("refused the call (401): the token sent is not its API token");
    }

    @Test
    void badUsageExits2WithAMessageThatSaysWhy() throws Exception {
        Path missing = temp.resolve("nope.json");
        Result notAFile = bench("--plan", missing.toString());
        assertThat(notAFile.code).isEqualTo(2);
        assertThat(notAFile.stderr).contains("--plan '" + missing + "' is neither a preset [quick, published] nor a readable JSON file");

        Path misspelt = Files.writeString(temp.resolve("misspelt.json"), "{\"exec\": {\"nn\": 3}}");
        Result unreadable = bench("--plan", misspelt.toString());
        assertThat(unreadable.code).isEqualTo(2);
        assertThat(unreadable.stderr).contains("is not a plan:\n  plan.exec.nn: is not a known field; known here: [agentWarmupCalls, metrics, n, warmups]");
        Path fraction = Files.writeString(temp.resolve("fraction.json"), "{\"exec\": {\"n\": 1.5}}");
        assertThat(bench("--plan", fraction.toString()).stderr)
                .contains("plan.exec.n: must be a whole number from 1 to 1000000, was '1.5'");

        Path zero = Files.writeString(temp.resolve("zero.json"), "{\"exec\": {\"n\": 0}}");
        Result refused = bench("--plan", zero.toString(), "--server", "http://127.0.0.1:" + port);
        assertThat(refused.code).isEqualTo(2);
        assertThat(refused.stderr).contains("the run was refused:\n  plan.exec.n: must be from 1 to 1000000, was 0");

        // Baseline mistakes are caught before anything is measured.
        String server = "http://127.0.0.1:" + port;
        Result unknownBaseline = bench("--plan", "quick", "--server", server, "--baseline", "no-such-baseline");
        assertThat(unknownBaseline.code).isEqualTo(2);
        assertThat(unknownBaseline.stderr).contains("--baseline: no baseline named 'no-such-baseline'");
        assertThat(unknownBaseline.stdout).doesNotContain("queued");
        Result alone = bench("--threshold", "1.1");
        assertThat(alone.code).isEqualTo(2);
        assertThat(alone.stderr).contains("--threshold, --statistic and --level need --baseline NAME");
        assertThat(bench("--baseline", "cua-0.15.0", "--threshold", "0").stderr).contains("--threshold must be more than 0");
        assertThat(bench("--baseline", "cua-0.15.0", "--statistic", "p42").stderr).contains("--statistic must be one of [p50, p95, p99]");
        assertThat(bench("--baseline", "cua-0.15.0", "--level", "0").stderr).contains("--level must be a concurrency sweep's level");

        assertThat(bench("--plan").code).isEqualTo(2);
        assertThat(bench("--cpus", "many").code).isEqualTo(2);
        Result unknown = bench("--bogus");
        assertThat(unknown.code).isEqualTo(2);
        assertThat(unknown.stderr).contains("Unknown option: '--bogus'").contains("Usage: spacebench bench");

        Result noServer = bench("--plan", "quick", "--server", "http://127.0.0.1:1");
        assertThat(noServer.code).isEqualTo(2);
        assertThat(noServer.stderr).contains("cannot reach the server at http://127.0.0.1:1: nothing answers there");

        Result help = bench("--help");
        assertThat(help.code).isZero();
        assertThat(help.stdout).contains("--plan=quick|published|FILE.json").contains("Exit codes:");
    }

    /** result.json, samples.csv and page.md are there, and each printed figure is result.json's. */
    private static void assertFilesAndTable(Path out, String stdout) throws Exception {
        JsonNode result = JSON.readTree(Files.readString(out.resolve("result.json")));
        assertThat(result.get("schema").asString()).isEqualTo("spacebench.result/v1");
        assertThat(Files.readAllLines(out.resolve("samples.csv")).get(0)).isEqualTo("metric,iteration,phase,ns,bytes,ok,error,agent_ns,level,space_index,channel,block,seq,entry");
        assertThat(Files.readString(out.resolve("page.md"))).startsWith("# How long does a command round trip");
        assertThat(stdout).contains(result.get("run").get("headline").asString());

        Map<String, String[]> rows = table(stdout);
        List<String> header = Arrays.asList(rows.get("metric"));
        assertThat(header).isEqualTo(ResultTable.HEADER);
        int checked = 0;
        for (JsonNode metric : result.get("metrics")) {
            String[] row = rows.get(metric.get("metric").asString());
            assertThat(row).as(metric.get("metric").asString()).isNotNull();
            assertThat(row[header.indexOf("p50")]).isEqualTo(Format.duration(metric.get("p50Ns").asLong()));
            assertThat(row[header.indexOf("p99")]).isEqualTo(Format.duration(metric.get("p99Ns").asLong()));
            assertThat(row[header.indexOf("n")]).isEqualTo(metric.get("n").asString());
            checked++;
        }
        // Space ready and its 3 parts, 3 exec, upload and download, Space delete
        assertThat(checked).isEqualTo(1 + 3 + 3 + 2 + 1);
    }

    /**
     * The results table's rows by their first cell: from its header line to the next blank line;
     * cells are separated by two or more spaces.
     */
    private static Map<String, String[]> table(String stdout) {
        Map<String, String[]> rows = new HashMap<>();
        List<String> lines = stdout.lines().toList();
        int start = lines.indexOf(lines.stream().filter(l -> l.startsWith("metric ") && l.contains("slowest")).findFirst().orElseThrow());
        int end = start;
        while (end < lines.size() && !lines.get(end).isBlank()) {
            end++;
        }
        lines.subList(start, end).forEach(line -> {
            String[] cells = line.trim().split(" {2,}");
            // Rows without a lane leave that column blank: put the gap back so columns line up.
            if (!line.startsWith("metric") && !line.startsWith("file.")) {
                String[] shifted = new String[cells.length + 1];
                shifted[0] = cells[0];
                shifted[1] = "";
                System.arraycopy(cells, 1, shifted, 2, cells.length - 1);
                cells = shifted;
            }
            rows.put(cells[0], cells);
        });
        return rows;
    }

    /** bench as a CI job runs it against the test server: with the server's token in SPACEBENCH_API_TOKEN. */
    private static Result bench(String... args) throws Exception {
        return bench(Map.of("SPACEBENCH_API_TOKEN", apiToken()), args);
    }

    private static Result bench(Map<String, String> environment, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = BenchCommand.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false, environment);
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private record Result(int code, String stdout, String stderr) {
    }
}
