package dev.spacebench.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spacebench.AppTestSupport;
import dev.spacebench.environment.Environment;
import dev.spacebench.environment.SystemFacts;
import dev.spacebench.fleet.Leases;
import dev.spacebench.measure.Phase;
import dev.spacebench.measure.Sample;
import dev.spacebench.plan.ExecPlan;
import dev.spacebench.plan.FilePlan;
import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.FloorPlan;
import dev.spacebench.plan.Plan;
import dev.spacebench.plan.Plans;
import dev.spacebench.run.samples.SampleBatches;
import dev.spacebench.space.SpaceSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * An interleaved run's page shows its ratios with their 95% intervals, its Channels table (a skipped metric with the
 * channel's reason) and, when one series' blocks drift, a caveat naming it; result.json carries the same figures.
 * The run's samples are made here and written as the worker writes them ({@link RunRecorder}); its figures and
 * block medians are stored by the app's own path for a run whose worker stopped (lease expired). Every ratio and
 * interval the page shows is checked against SciPy from the run's samples.csv ({@code paired_figures.py}).
 */
class PairedPageTest extends AppTestSupport {

    private static final String UNMADE = "kind-no-worker-makes";
    private static final int BLOCKS = 30;
    private static final int PER_BLOCK = 10;
    private static final String SKIP_REASON = "this channel cannot download files";

    @Autowired
    RunRepository runs;
    @Autowired
    SampleBatches batches;
    @Autowired
    Leases leases;
    @Autowired
    JdbcTemplate jdbc;

    /** A stored interleaved run through the agent and "ssh": sh -c true drifts (+2% a block) when {@code drifting}. */
    private long run(boolean drifting) {
        Plan plan = Plans.withDefaults(new Plan(new ExecPlan(List.of("noop", "true", "sh_c"), BLOCKS * PER_BLOCK, 0, 0),
                new FilePlan(List.of(new FileSize(1L << 20, 5)), 0, null, null), new FloorPlan(true, BLOCKS * PER_BLOCK, 0), 1, null,
                Plan.INTERLEAVED, PER_BLOCK, 42L));
        long id = runs.save(new Run(UNMADE, new SpaceSpec(UNMADE, null, null), plan, 10, Instant.now())).getId();
        assertThat(runs.claim(id, "worker-gone", Instant.now())).isEqualTo(1);
        RunRecorder recorder = new RunRecorder(id, "worker-gone", batches, runs, () -> false);
        Random random = new Random(drifting ? 1 : 2);
        IntToDoubleFunction host = b -> 1 + 0.3 * Math.sin(b / 2.0);
        List<Object[]> series = List.of(
                new Object[] {"exec.noop", (IntToDoubleFunction) b -> 300_000 * host.applyAsDouble(b)},
                new Object[] {"floor.grpc.noop", (IntToDoubleFunction) b -> 200_000 * host.applyAsDouble(b)},
                new Object[] {"exec.true", (IntToDoubleFunction) b -> 1_500_000 * host.applyAsDouble(b)},
                new Object[] {"floor.hyperfine.true", (IntToDoubleFunction) b -> 900_000 * host.applyAsDouble(b)},
                new Object[] {"floor.spawn.true", (IntToDoubleFunction) b -> 800_000 * host.applyAsDouble(b)},
                new Object[] {"exec.sh_c", (IntToDoubleFunction) b -> 2_000_000 * (drifting ? 1 + 0.02 * b : 1)},
                new Object[] {"floor.hyperfine.sh_c", (IntToDoubleFunction) b -> 1_200_000 * host.applyAsDouble(b)},
                new Object[] {"floor.spawn.sh_c", (IntToDoubleFunction) b -> 1_100_000 * host.applyAsDouble(b)},
                new Object[] {"via.ssh.exec.true", (IntToDoubleFunction) b -> 6_000_000 * host.applyAsDouble(b)},
                new Object[] {"via.ssh.exec.sh_c", (IntToDoubleFunction) b -> 7_000_000 * host.applyAsDouble(b)});
        // Downloads over ssh are skipped: RunExecution stores a metric its channel cannot do as a Space fact, with the reason.
        Run stored = runs.findById(id).orElseThrow();
        stored.setEnvironment(new Environment(SystemFacts.read(), null, Map.of("not measured: via.ssh.file.download.1MiB", SKIP_REASON),
                "test", 0, "worker-gone", null, null));
        runs.save(stored);
        long seq = 0;
        for (int b = 1; b <= BLOCKS; b++) {
            for (Object[] s : series) {
                for (int i = 1; i <= PER_BLOCK; i++) {
                    long ns = Math.round(((IntToDoubleFunction) s[1]).applyAsDouble(b) * (1 + 0.2 * random.nextDouble()));
                    recorder.sample(new Sample((String) s[0], (b - 1) * PER_BLOCK + i, Phase.MEASURED, ns, 0, true, null, null, null, null,
                            b, ++seq));
                }
            }
        }
        for (String metric : List.of("file.upload.1MiB", "file.download.1MiB", "via.ssh.file.upload.1MiB")) {
            for (int i = 1; i <= 5; i++) {
                long base = metric.startsWith("via.") ? 9_000_000 : 3_000_000;
                recorder.sample(new Sample(metric, i, Phase.MEASURED, base + random.nextInt(300_000), 1L << 20, true, null));
            }
        }
        recorder.flush();
        jdbc.update("update run set lease_until = ? where id = ?", Timestamp.from(Instant.now().minus(Duration.ofMinutes(1))), id);
        try {
            leases.expire("the test");
        } catch (org.springframework.dao.DataAccessException e) {
            // The app's own reaper got there first and holds the run's row: it ends the run the same way.
        }
        Instant until = Instant.now().plus(Duration.ofMinutes(1));
        while (runs.findById(id).orElseThrow().getStatus() != RunStatus.INTERRUPTED && Instant.now().isBefore(until)) {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        assertThat(runs.findById(id).orElseThrow().getStatus()).isEqualTo(RunStatus.INTERRUPTED);
        return id;
    }

    /** "metric ratio lower upper" per pair, by SciPy from the run's samples.csv. */
    private List<String[]> scipy(long id, String... pairs) throws Exception {
        assumeTrue(new ProcessBuilder("python3", "-c", "import scipy, numpy").start().waitFor() == 0,
                "SciPy is not installed for python3 (Debian package python3-scipy)");
        Path csv = Files.createTempFile("spacebench-page-", ".csv");
        Files.writeString(csv, get("/api/runs/" + id + "/samples.csv").body());
        List<String> command = new ArrayList<>(List.of("python3", "src/test/python/paired_figures.py", csv.toString(), "pairs"));
        command.addAll(List.of(pairs));
        Process python = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(python.waitFor()).as(output).isZero();
        Files.delete(csv);
        return output.lines().map(l -> l.split(" ")).toList();
    }

    /** The data attributes of the page's ratio span for {@code metric}. */
    private static double[] shown(String page, String metric) {
        Matcher m = Pattern.compile("<span class=\"ratio\"\\s+data-metric=\"" + Pattern.quote(metric)
                + "\" data-ratio=\"([^\"]+)\" data-lower=\"([^\"]+)\" data-upper=\"([^\"]+)\" data-paired=\"true\"").matcher(page);
        int at = page.indexOf("data-metric=\"" + metric + "\"");
        assertThat(m.find()).as("a paired ratio of " + metric + " on the page: " + (at < 0 ? "none" : page.substring(Math.max(0, at - 200), Math.min(page.length(), at + 600))))
                .isTrue();
        return new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)), Double.parseDouble(m.group(3))};
    }

    @Test
    void theRatiosWithTheirIntervalsTheChannelsTableAndTheDriftCaveat() throws Exception {
        long id = run(true);
        String page = get("/runs/" + id).body();

        List<String[]> expected = scipy(id, "exec.noop=floor.grpc.noop", "exec.true=floor.hyperfine.true+floor.grpc.noop",
                "exec.sh_c=floor.hyperfine.sh_c+floor.grpc.noop", "via.ssh.exec.true=exec.true", "via.ssh.exec.sh_c=exec.sh_c");
        for (String[] scipy : expected) {
            double[] onPage = shown(page, scipy[0]);
            for (int i = 0; i < 3; i++) {
                assertThat(onPage[i]).as(scipy[0] + " figure " + i).isCloseTo(Double.parseDouble(scipy[i + 1]), within(1e-9));
            }
        }
        assertThat(page).contains("id=\"ratio-table\"", "30 blocks", "Hodges–Lehmann", "Wilcoxon signed-rank");
        // The Channels table: a row per channel, the skipped no-op with the channel's reason, an unpaired file ratio.
        assertThat(page).contains("id=\"channels-table\"", "data-channel=\"agent\"", "data-channel=\"ssh\"",
                "skipped: " + SKIP_REASON);
        assertThat(page).containsPattern("data-metric=\"via.ssh.file.upload.1MiB\"\\s+data-ratio=\"[0-9.]+\" data-lower=\"[0-9.]+\" "
                + "data-upper=\"[0-9.]+\" data-paired=\"false\"");
        // The drift caveat names the series and the size of its move; only sh -c true drifted.
        assertThat(page).contains("The host was not steady during sh -c true: its block medians moved +");
        assertThat(page).doesNotContain("The host was not steady during true", "The host was not steady during no-op");
        assertThat(page).contains("id=\"plot-drift\"");

        JsonNode result = json(get("/api/runs/" + id + "/result.json"));
        // The reason is said once on the page: in the Channels table, not again among the environment's facts.
        assertThat(page.split(java.util.regex.Pattern.quote(SKIP_REASON), -1)).as("times the page gives the skip reason").hasSize(2);
        assertThat(result.get("environment").get("space").get("not measured: via.ssh.file.download.1MiB").asString())
                .isEqualTo(SKIP_REASON);
        assertThat(result.has("comparisons")).as("one name for the ratios: paired").isFalse();
        assertThat(result.get("comparison").isNull()).as("a run of one Space has no entries to compare").isTrue();
        JsonNode comparisons = result.get("paired");
        assertThat(comparisons.get("interleaved").asBoolean()).isTrue();
        JsonNode sh = null;
        for (JsonNode ratio : comparisons.get("ratios")) {
            if (ratio.get("metric").asString().equals("exec.sh_c")) {
                sh = ratio;
            }
        }
        assertThat(sh).isNotNull();
        assertThat(sh.get("against").toString()).isEqualTo("[\"floor.hyperfine.sh_c\",\"floor.grpc.noop\"]");
        assertThat(sh.get("lower").asDouble()).isCloseTo(Double.parseDouble(expected.get(2)[2]), within(1e-9));
        JsonNode flagged = null;
        for (JsonNode s : comparisons.get("drift").get("series")) {
            if (s.get("flagged").asBoolean()) {
                assertThat(flagged).as("one flagged series").isNull();
                flagged = s;
            }
        }
        assertThat(flagged.get("metric").asString()).isEqualTo("exec.sh_c");

        String markdown = get("/api/runs/" + id + "/page.md").body();
        assertThat(markdown).contains("### Against the floor", "### Channels", "skipped: " + SKIP_REASON,
                "The host was not steady during sh -c true");
    }

    @Test
    void aSteadyRunShowsNoDriftCaveat() throws Exception {
        long id = run(false);
        String page = get("/runs/" + id).body();
        assertThat(page).contains("id=\"ratio-table\"", "id=\"plot-drift\"").doesNotContain("The host was not steady");
    }
}
