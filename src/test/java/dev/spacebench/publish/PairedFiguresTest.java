package dev.spacebench.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spacebench.run.MetricResult;
import dev.spacebench.run.samples.BlockMedians;
import dev.spacebench.stats.PercentileInterval;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * The paired figures and the drift check against SciPy, from a samples.csv written here: the script recomputes
 * block medians, the paired Hodges–Lehmann ratio with its Wilcoxon interval, Spearman's ρ with its p-value and the
 * Theil–Sen slope on its own ({@code src/test/python/paired_figures.py}), never through the production code.
 */
class PairedFiguresTest {

    private static final int BLOCKS = 30;
    private static final int PER_BLOCK = 10;

    /** metric → block → samples, as an interleaved run takes them. */
    private final Map<String, Map<Integer, long[]>> taken = new LinkedHashMap<>();

    /** A series of {@link #BLOCKS} blocks whose samples are {@code level(block)} × (1 + 30% uniform noise). */
    private void series(String metric, Random random, IntToDoubleFunction level) {
        Map<Integer, long[]> blocks = new HashMap<>();
        for (int b = 1; b <= BLOCKS; b++) {
            long[] samples = new long[PER_BLOCK];
            for (int i = 0; i < PER_BLOCK; i++) {
                samples[i] = Math.round(level.applyAsDouble(b) * (1 + 0.3 * random.nextDouble()));
            }
            blocks.put(b, samples);
        }
        taken.put(metric, blocks);
    }

    /** A stored result of all a series' samples: p50 by nearest rank and the published intervals. */
    private static MetricResult result(String metric, Map<Integer, long[]> blocks) {
        long[] sorted = blocks.values().stream().flatMapToLong(Arrays::stream).sorted().toArray();
        long p50 = sorted[(sorted.length + 1) / 2 - 1];
        return new MetricResult(1L, metric, 0, 0, null, sorted.length, 0, 0, sorted[0], p50, p50, sorted[sorted.length * 99 / 100],
                sorted[sorted.length - 1], (double) p50, 0.0, PercentileInterval.published(sorted), null);
    }

    private List<MetricResult> results() {
        return taken.entrySet().stream().map(e -> result(e.getKey(), e.getValue())).toList();
    }

    private Map<String, SortedMap<Integer, Long>> medians() {
        Map<String, SortedMap<Integer, Long>> medians = new LinkedHashMap<>();
        taken.forEach((metric, blocks) -> medians.put(metric, BlockMedians.of(blocks)));
        return medians;
    }

    /** samples.csv with the columns the script reads; one warm-up and one failed row it must leave out. */
    private Path csv() throws Exception {
        StringBuilder csv = new StringBuilder("metric,iteration,phase,ns,bytes,ok,error,agent_ns,level,space_index,channel,block,seq\n");
        long seq = 0;
        for (var e : taken.entrySet()) {
            csv.append(e.getKey()).append(",0,warmup,1,0,true,,,,,,,\n");
            csv.append(e.getKey()).append(",1,measured,1,0,false,boom,,,,,1,\n");
            for (var b : e.getValue().entrySet()) {
                for (long ns : b.getValue()) {
                    csv.append(e.getKey()).append(",1,measured,").append(ns).append(",0,true,,,,,,").append(b.getKey()).append(',')
                            .append(++seq).append('\n');
                }
            }
        }
        Path file = Files.createTempFile("spacebench-paired-", ".csv");
        Files.writeString(file, csv);
        return file;
    }

    private static List<String[]> scipy(Path csv, String... args) throws Exception {
        assumeTrue(scipyAvailable(), "SciPy is not installed for python3 (Debian package python3-scipy)");
        List<String> command = new ArrayList<>(List.of("python3", "src/test/python/paired_figures.py", csv.toString()));
        command.addAll(List.of(args));
        Process python = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(python.waitFor()).as(output).isZero();
        return output.lines().map(l -> l.split(" ")).toList();
    }

    @Test
    void eachFloorAndChannelPairMatchesScipyFromTheSamples() throws Exception {
        Random random = new Random(29);
        // A drift every series shares (the host), so that only pairing by block gives a narrow interval.
        IntToDoubleFunction host = b -> 1 + 0.4 * Math.sin(b / 3.0);
        series("exec.noop", random, b -> 300_000 * host.applyAsDouble(b));
        series("floor.grpc.noop", random, b -> 200_000 * host.applyAsDouble(b));
        series("exec.sh_c", random, b -> 2_000_000 * host.applyAsDouble(b));
        series("floor.hyperfine.sh_c", random, b -> 1_100_000 * host.applyAsDouble(b));
        series("floor.spawn.sh_c", random, b -> 900_000 * host.applyAsDouble(b));
        series("via.ssh.exec.sh_c", random, b -> 9_000_000 * host.applyAsDouble(b));

        PairedFigures figures = PairedFigures.of(results(), medians(), Map.of());

        assertThat(figures.pairs()).extracting(PairedFigures.Pair::metric).containsExactly("exec.noop", "exec.sh_c", "via.ssh.exec.sh_c");
        List<String[]> expected = scipy(csv(), "pairs", "exec.noop=floor.grpc.noop", "exec.sh_c=floor.hyperfine.sh_c+floor.grpc.noop",
                "via.ssh.exec.sh_c=exec.sh_c");
        for (int i = 0; i < 3; i++) {
            PairedFigures.Pair pair = figures.pairs().get(i);
            String[] scipy = expected.get(i);
            assertThat(pair.metric()).isEqualTo(scipy[0]);
            assertThat(pair.paired()).isTrue();
            assertThat(pair.blocks()).isEqualTo(BLOCKS);
            assertThat(pair.ratio()).as(pair.metric() + " estimate").isCloseTo(Double.parseDouble(scipy[1]), within(1e-9));
            assertThat(pair.lower()).as(pair.metric() + " lower end").isCloseTo(Double.parseDouble(scipy[2]), within(1e-9));
            assertThat(pair.upper()).as(pair.metric() + " upper end").isCloseTo(Double.parseDouble(scipy[3]), within(1e-9));
        }
        // The "added" sentence reads from the paired ratio: 3 significant digits of SciPy's figures, rounded here.
        String sentence = Split.of(results(), null, Map.of(), figures).added().stream().filter(a -> a.metric().equals("exec.sh_c"))
                .findFirst().orElseThrow().text();
        String[] sh = expected.get(1);
        assertThat(sentence).contains("paired by block, " + three(sh[1]) + "× the floor's time, 95% CI " + three(sh[2]) + "× – "
                + three(sh[3]) + "× over 30 blocks");
        // Hyperfine ran, so sh -c true reads against it plus the bare ping, as the "added" line does.
        assertThat(figures.pairs().get(1).against()).containsExactly("floor.hyperfine.sh_c", "floor.grpc.noop");
        assertThat(figures.pairs().get(2).kind()).isEqualTo(PairedFigures.CHANNEL);
        assertThat(figures.pairs().get(2).channel()).isEqualTo("ssh");
    }

    @Test
    void aRunWithoutBlocksGetsTheUnpairedRatioOfItsP50s() {
        Random random = new Random(3);
        series("exec.noop", random, b -> 300_000);
        series("floor.grpc.noop", random, b -> 200_000);
        List<MetricResult> results = results();
        long noop = results.get(0).getP50Ns();
        long ping = results.get(1).getP50Ns();

        PairedFigures point = PairedFigures.of(results, Map.of(), Map.of());
        PairedFigures.Pair pair = point.pairs().get(0);
        assertThat(pair.paired()).isFalse();
        assertThat(pair.blocks()).isNull();
        assertThat(pair.ratio()).isEqualTo((double) noop / ping);
        assertThat(pair.lower()).isNull();
        assertThat(pair.method()).contains("unpaired");
    }

    @Test
    void aDriftingSeriesIsFlaggedAndASteadyOneIsNot() throws Exception {
        Random random = new Random(7);
        series("exec.true", random, b -> 1_000_000 * (1 + 0.02 * b));       // +2% a block: +58% over the run
        series("floor.spawn.true", random, b -> 800_000);                   // steady
        series("exec.noop", random, b -> 300_000 * (1 + 0.3 * Math.sin(b))); // wobbles, no trend

        Drift drift = Drift.of(medians(), results());

        assertThat(drift.threshold()).isEqualTo(0.05 / 3);
        List<String[]> expected = scipy(csv(), "drift");
        Map<String, Drift.Series> byMetric = new HashMap<>();
        drift.series().forEach(s -> byMetric.put(s.metric(), s));
        assertThat(expected).hasSize(3);
        for (String[] scipy : expected) {
            Drift.Series s = byMetric.get(scipy[0]);
            assertThat(s.rho()).as(scipy[0] + " rho").isCloseTo(Double.parseDouble(scipy[1]), within(1e-12));
            assertThat(s.p()).as(scipy[0] + " p").isCloseTo(Double.parseDouble(scipy[2]), within(1e-9));
            assertThat(s.slopeNs()).as(scipy[0] + " slope").isCloseTo(Double.parseDouble(scipy[3]), within(1e-6));
            // The move is the slope over the 29 blocks between the first and the last.
            assertThat(s.moveNs()).isEqualTo(Math.round(Double.parseDouble(scipy[3]) * (BLOCKS - 1)));
        }
        assertThat(drift.flagged()).extracting(Drift.Series::metric).containsExactly("exec.true");
        Drift.Series moved = byMetric.get("exec.true");
        assertThat(moved.p()).isLessThan(0.05 / 3);
        assertThat(Math.abs(moved.moveNs())).isGreaterThan(moved.p50Ci());
        assertThat(byMetric.get("floor.spawn.true").flagged()).isFalse();
        assertThat(byMetric.get("exec.noop").flagged()).isFalse();
    }

    @Test
    void aSteadyRunHasNothingFlagged() {
        Random random = new Random(11);
        series("exec.true", random, b -> 1_000_000);
        series("floor.spawn.true", random, b -> 800_000);

        assertThat(Drift.of(medians(), results()).flagged()).isEmpty();
    }

    /** Three significant digits, half-even, trailing zeros kept (as pages print ratios). */
    private static String three(String value) {
        return new java.math.BigDecimal(value).round(new java.math.MathContext(3, java.math.RoundingMode.HALF_EVEN)).toPlainString();
    }

    private static boolean scipyAvailable() {
        try {
            return new ProcessBuilder("python3", "-c", "import scipy, numpy").start().waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }
}
