package dev.spacebench.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spacebench.AppTestSupport;
import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceException;
import dev.spacebench.space.SpaceProvider;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.process.ProcessSpaceProvider;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import tools.jackson.databind.JsonNode;

/**
 * Comparison runs (issue 29) end to end on real process Spaces: two entries measured in one
 * interleaved run, their blocks alternating in the seeded order, each sample naming its entry in
 * samples.csv; the ratio and its 95% interval in result.json recomputed from samples.csv alone by
 * SciPy (src/test/python/paired_ratio.py, not the production code); every Space deleted when the
 * second entry's create fails and on cancel.
 */
@Import(ComparisonRunTest.RefusingKind.class)
class ComparisonRunTest extends AppTestSupport {

    private static final String SHORT = "\"plan\":{\"seed\":29,\"blockSize\":10,\"exec\":{\"metrics\":[\"noop\",\"true\"],\"n\":80,"
            + "\"warmups\":2,\"agentWarmupCalls\":100},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}";
    private static final String FOREVER = "\"plan\":{\"exec\":{\"metrics\":[\"noop\"],\"n\":1000000,\"warmups\":0,"
            + "\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}";

    @Test
    void twoProcessSpacesAreMeasuredInterleavedAndTheirRatioRecomputesFromSamplesCsv() throws Exception {
        HttpResponse<String> created = post("/api/runs", "{\"compare\":[{\"label\":\"A\",\"space\":{\"kind\":\"process\"}},"
                + "{\"label\":\"B-2\",\"space\":{\"kind\":\"process\"}}]," + SHORT + "}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonNode queued = json(created);
        assertThat(queued.get("compare").get(1).get("label").asString()).isEqualTo("B-2");
        long id = queued.get("id").asLong();
        JsonNode run = awaitFinished(id, Duration.ofSeconds(300));
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("SUCCEEDED");
        assertThat(run.get("kind").asString()).isEqualTo("process");
        assertNoSpaceLeft();

        List<String> lines = get("/api/runs/" + id + "/samples.csv").body().lines().toList();
        List<String> header = List.of(lines.get(0).split(","));
        assertThat(header.get(header.size() - 1)).as("the entry column comes last").isEqualTo("entry");
        int blockAt = header.indexOf("block");
        int entryAt = header.indexOf("entry");
        // metric → block → measured ok ns, and the order the exec blocks were taken in
        Map<String, TreeMap<Integer, List<Long>>> blocks = new LinkedHashMap<>();
        List<String> order = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            assertThat(f).as(line).hasSize(header.size());
            String metric = f[0];
            String expectedEntry = metric.startsWith("entry.2.") ? "B-2" : "A";
            assertThat(f[entryAt]).as("the entry of %s", line).isEqualTo(expectedEntry);
            if (f[blockAt].isEmpty() || !f[2].equals("measured")) {
                continue;
            }
            assertThat(f[5]).as(line).isEqualTo("true");
            int block = Integer.parseInt(f[blockAt]);
            blocks.computeIfAbsent(metric, k -> new TreeMap<>()).computeIfAbsent(block, k -> new ArrayList<>()).add(Long.parseLong(f[3]));
            String slot = metric + "#" + block;
            if (order.isEmpty() || !order.get(order.size() - 1).equals(slot)) {
                order.add(slot);
            }
        }
        assertThat(blocks.keySet()).containsExactlyInAnyOrder("exec.noop", "exec.true", "entry.2.exec.noop", "entry.2.exec.true");
        blocks.forEach((metric, byBlock) -> assertThat(byBlock.keySet()).as(metric).containsExactly(1, 2, 3, 4, 5, 6, 7, 8));
        // One block of every series per round: the four series' block b all come before any block b + 1.
        for (int round = 0; round < 8; round++) {
            List<String> inRound = order.subList(round * 4, round * 4 + 4);
            int b = round + 1;
            assertThat(inRound).as("round %d", b).containsExactlyInAnyOrder("exec.noop#" + b, "exec.true#" + b,
                    "entry.2.exec.noop#" + b, "entry.2.exec.true#" + b);
        }
        // The seeded order, the same as the schedule of the same series and seed (measure.BlockSchedule, shuffled per round).
        List<String> expected = new ArrayList<>();
        for (var slot : dev.spacebench.measure.BlockSchedule.of(List.of(
                new dev.spacebench.measure.BlockSchedule.Series("exec.noop", 80, 2),
                new dev.spacebench.measure.BlockSchedule.Series("exec.true", 80, 2),
                new dev.spacebench.measure.BlockSchedule.Series("entry.2.exec.noop", 80, 2),
                new dev.spacebench.measure.BlockSchedule.Series("entry.2.exec.true", 80, 2)), 8, 29).slots()) {
            expected.add(slot.series() + "#" + slot.block());
        }
        assertThat(order).isEqualTo(expected);

        JsonNode result = json(get("/api/runs/" + id + "/result.json"));
        JsonNode comparison = result.get("comparison");
        assertThat(comparison.get("entries").get(0).get("label").asString()).isEqualTo("A");
        assertThat(comparison.get("metrics")).hasSize(2);
        assumeTrue(scipyAvailable(), "SciPy is not installed for python3 (Debian package python3-scipy)");
        // The same B ÷ A on /compare (run=ID alone: the run's first entry against its second) and in page.md.
        JsonNode compared = json(get("/api/compare?run=" + id));
        assertThat(compared.get("noPairing").isNull()).as(compared.toString()).isTrue();
        String markdown = get("/api/runs/" + id + "/page.md").body();
        assertThat(markdown).contains("### Comparison: 2 Spaces in one run");
        assertThat(get("/compare?run=" + id).body()).contains("entries of one comparison run");
        HttpResponse<String> noSuchEntry = get("/api/compare?run=" + id + "&entry=3");
        assertThat(noSuchEntry.statusCode()).as(noSuchEntry.body()).isEqualTo(400);
        assertThat(noSuchEntry.body()).contains("entry", "must be from 2 to 2");
        for (JsonNode row : comparison.get("metrics")) {
            String metric = row.get("metric").asString();
            JsonNode b = row.get("entries").get(1);
            assertThat(b.get("id").asString()).isEqualTo("entry.2." + metric);
            assertThat(b.get("blocks").asInt()).isEqualTo(8);
            double[] scipy = scipy(blocks.get("entry.2." + metric), blocks.get(metric));
            assertThat(b.get("ratio").asDouble()).as("%s B ÷ A", metric).isCloseTo(scipy[0], within(1e-9 * scipy[0]));
            assertThat(b.get("lower").asDouble()).as("%s lower", metric).isCloseTo(scipy[1], within(1e-9 * scipy[0]));
            assertThat(b.get("upper").asDouble()).as("%s upper", metric).isCloseTo(scipy[2], within(1e-9 * scipy[0]));
            assertThat(b.get("includesOne").asBoolean()).isEqualTo(scipy[1] <= 1 && scipy[2] >= 1);
            JsonNode onCompare = null;
            for (JsonNode p : compared.get("paired")) {
                if (p.get("metric").asString().equals(metric)) {
                    onCompare = p;
                }
            }
            assertThat(onCompare).as("/compare's paired row of %s: %s", metric, compared).isNotNull();
            assertThat(onCompare.get("blocks").asInt()).isEqualTo(8);
            assertThat(onCompare.get("ratio").asDouble()).as("/compare %s B ÷ A", metric).isCloseTo(scipy[0], within(1e-9 * scipy[0]));
            assertThat(onCompare.get("lower").asDouble()).as("/compare %s lower", metric).isCloseTo(scipy[1], within(1e-9 * scipy[0]));
            assertThat(onCompare.get("upper").asDouble()).as("/compare %s upper", metric).isCloseTo(scipy[2], within(1e-9 * scipy[0]));
            // page.md's row: "| no-op | 2.89 ms | 2.95 ms | 1.02× (0.98–1.10) |", three significant digits.
            java.util.regex.Matcher md = java.util.regex.Pattern.compile("(?m)^\\| " + java.util.regex.Pattern.quote(row.get("label").asString())
                    + " \\| [^|]+ \\| [^|]+ \\| ([0-9.]+)× \\(([0-9.]+)–([0-9.]+)\\) \\|$").matcher(markdown);
            assertThat(md.find()).as("page.md's row of %s in:%n%s", metric, markdown).isTrue();
            for (int i = 0; i < 3; i++) {
                assertThat(Double.parseDouble(md.group(i + 1))).as("page.md %s figure %d", metric, i)
                        .isCloseTo(scipy[i], within(0.006 * scipy[i]));
            }
            long[] all = blocks.get("entry.2." + metric).values().stream().flatMap(List::stream).mapToLong(Long::longValue).sorted()
                    .toArray();
            assertThat(b.get("p50Ns").asLong()).as("nearest-rank p50").isEqualTo(all[(all.length + 1) / 2 - 1]);
        }

        String page = get("/runs/" + id).body();
        assertThat(page).contains("id=\"comparison-table\"").contains("<span>B-2</span> p50").contains("<span>B-2</span> ÷ <span>A</span>")
                .contains("data-metric=\"entry.2.exec.noop\" data-stat=\"ratio\"");
    }

    @Test
    void whenTheSecondEntrysSpaceCannotBeMadeTheFirstIsDeletedAndTheRunSaysWhich() throws Exception {
        RefusingKind.ARMED.set(true);
        long id = json(post("/api/runs", "{\"compare\":[{\"label\":\"A\",\"space\":{\"kind\":\"process\"}},"
                + "{\"label\":\"B\",\"space\":{\"kind\":\"" + RefusingKind.KIND + "\"}}]," + SHORT + "}")).get("id").asLong();
        JsonNode run = awaitFinished(id, Duration.ofSeconds(120));
        assertThat(run.get("status").asString()).isEqualTo("FAILED");
        assertThat(run.get("failureReason").asString()).startsWith("could not create the Space: entry B (kind " + RefusingKind.KIND + "): ")
                .contains(RefusingKind.WHY);
        assertNoSpaceLeft();
        String csv = get("/api/runs/" + id + "/samples.csv").body();
        assertThat(csv).as("A's Space was made and its delete timed").contains("\nspace.ready,1,measured,").contains("\nspace.delete,1,measured,");
    }

    @Test
    void cancellingAComparisonDeletesEverySpace() throws Exception {
        long id = json(post("/api/runs", "{\"compare\":[{\"label\":\"A\",\"space\":{\"kind\":\"process\"}},"
                + "{\"label\":\"B\",\"space\":{\"kind\":\"process\"}},{\"label\":\"C\",\"space\":{\"kind\":\"process\"}}]," + FOREVER + "}"))
                .get("id").asLong();
        await(id, r -> r.get("progress").get("done").asLong() > 300);
        assertThat(spaceDirs()).as("three Spaces while it runs").hasSize(3);
        post("/api/runs/" + id + "/cancel", "");
        JsonNode run = awaitFinished(id, Duration.ofSeconds(60));
        assertThat(run.get("status").asString()).isEqualTo("CANCELLED");
        assertNoSpaceLeft();
        String csv = get("/api/runs/" + id + "/samples.csv").body();
        assertThat(csv).contains("\nspace.delete,1,measured,").contains("\nentry.2.space.delete,1,measured,")
                .contains("\nentry.3.space.delete,1,measured,");
        assertThat(csv).as("C's blocks ran among the others'").contains("\nentry.3.exec.noop,1,measured,");
    }

    @Test
    void badComparisonsAreRefusedNamingTheField() throws Exception {
        String a = "{\"label\":\"A\",\"space\":{\"kind\":\"process\"}}";
        String b = "{\"label\":\"B\",\"space\":{\"kind\":\"process\"}}";
        refused("{\"space\":{\"kind\":\"process\"},\"compare\":[" + a + "," + b + "]}", "space", "not both");
        refused("{\"channels\":[\"agent\"],\"compare\":[" + a + "," + b + "]}", "channels", "compare[i].channels");
        refused("{\"compare\":[" + a + "]}", "compare", "from 2 to 4 entries, had 1");
        refused("{\"compare\":[]}", "compare", "from 2 to 4 entries, had 0");
        String five = String.join(",", a, b, b.replace("\"B\"", "\"C\""), b.replace("\"B\"", "\"D\""), b.replace("\"B\"", "\"E\""));
        refused("{\"compare\":[" + five + "]}", "compare", "from 2 to 4 entries, had 5");
        refused("{\"compare\":[" + a + "," + a + "]}", "compare[1].label", "unique");
        refused("{\"compare\":[" + a + "," + b.replace("\"B\"", "\"\"") + "]}", "compare[1].label", "is required");
        refused("{\"compare\":[" + a + "," + b.replace("\"B\"", "\"" + "x".repeat(41) + "\"") + "]}", "compare[1].label",
                "at most 40 characters, was 41");
        refused("{\"compare\":[" + a + "," + b.replace("\"B\"", "\"B C\"") + "]}", "compare[1].label", "A-Z a-z 0-9");
        refused("{\"compare\":[" + a + "," + b.replace("process", "no-such-kind") + "]}", "compare[1].space.kind", "must be one of");
        // A command target's Space has no agent to reach it through (issue 27 meets 29): refused, not run another way.
        refused("{\"compare\":[" + a + "," + b.replace("process", "command") + "]}", "compare[1].space.kind",
                "measured in a run of its own, without compare; was 'command'");
        refused("{\"compare\":[" + a + "," + b + "],\"plan\":{\"order\":\"sequential\"}}", "plan.order", "interleaved");
        refused("{\"compare\":[" + a + "," + b + "],\"plan\":{\"spaces\":3}}", "plan.spaces", "must be 1");
        refused("{\"compare\":[" + a + "," + b + "],\"plan\":{\"concurrency\":{\"levels\":[1,2]}}}", "plan.concurrency",
                "does not run a concurrency sweep");
        refused("{\"compare\":[" + a + "," + b + "],\"plan\":{\"blockSize\":0}}", "plan.blockSize", "must be from 1 to");
        refused("{\"compare\":[" + a + "," + b + "],\"plan\":{\"exec\":{\"n\":20},\"blockSize\":21}}", "plan.blockSize",
                "must be from 1 to 20");
    }

    private void refused(String body, String field, String says) throws Exception {
        HttpResponse<String> response = post("/api/runs", body);
        assertThat(response.statusCode()).as(body + " → " + response.body()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        JsonNode errors = json(response).get("errors");
        List<String> fields = new ArrayList<>();
        errors.forEach(e -> fields.add(e.get("field").asString()));
        assertThat(fields).as(body + " → " + response.body()).contains(field);
        for (JsonNode e : errors) {
            if (e.get("field").asString().equals(field)) {
                assertThat(e.get("message").asString()).as(body).contains(says);
            }
        }
    }

    private void await(long id, java.util.function.Predicate<JsonNode> until) throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        while (System.nanoTime() < end) {
            JsonNode run = json(get("/api/runs/" + id));
            assertThat(run.get("status").asString()).as(run.toString()).isIn("QUEUED", "RUNNING");
            if (until.test(run)) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("run " + id + " did not get there in 180 s");
    }

    private static List<String> spaceDirs() throws Exception {
        try (Stream<Path> dirs = Files.list(SPACES)) {
            return dirs.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith("run-") && !n.startsWith(".")).toList();
        }
    }

    private static void assertNoSpaceLeft() throws Exception {
        assertThat(spaceDirs()).as("Space directories left under the Spaces root").isEmpty();
    }

    /** SciPy's ratio, lower, upper of a over b (paired_ratio.py). */
    private static double[] scipy(TreeMap<Integer, List<Long>> a, TreeMap<Integer, List<Long>> b) throws Exception {
        Path file = Files.createTempFile("paired", ".json");
        try {
            Files.writeString(file, JSON.writeValueAsString(Map.of("a", new ArrayList<>(a.values()), "b", new ArrayList<>(b.values()),
                    "level", 0.95)));
            Process python = new ProcessBuilder("python3", "src/test/python/paired_ratio.py", file.toString(), "exact")
                    .redirectErrorStream(true).start();
            String output = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            assertThat(python.waitFor()).as(output).isZero();
            String[] parts = output.split("\\s+");
            return new double[] {Double.parseDouble(parts[0]), Double.parseDouble(parts[1]), Double.parseDouble(parts[2])};
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static boolean scipyAvailable() {
        try {
            return new ProcessBuilder("python3", "-c", "import scipy, numpy").start().waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    /** A kind whose create fails once armed, as a kind does whose engine refuses (a process Space otherwise). */
    @TestConfiguration
    static class RefusingKind {
        static final String KIND = "refusing";
        static final String WHY = "this test's kind refuses its create";
        /** Its check at the app's start makes one; only the create after the test arms it fails. */
        static final java.util.concurrent.atomic.AtomicBoolean ARMED = new java.util.concurrent.atomic.AtomicBoolean();

        @Bean
        SpaceProvider refusingKind() {
            return new ProcessSpaceProvider(SPACES) {
                @Override
                public String kind() {
                    return RefusingKind.KIND;
                }

                @Override
                public Space create(Path root, SpaceSpec spec, Duration readyTimeout) throws SpaceException {
                    if (ARMED.getAndSet(false)) {
                        throw new SpaceException(WHY);
                    }
                    return super.create(root, spec, readyTimeout);
                }
            };
        }
    }
}
