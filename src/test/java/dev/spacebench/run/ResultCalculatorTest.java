package dev.spacebench.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.spacebench.measure.Phase;
import dev.spacebench.measure.Sample;
import dev.spacebench.plan.ExecPlan;
import dev.spacebench.plan.FilePlan;
import dev.spacebench.plan.FloorPlan;
import dev.spacebench.plan.Plan;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The figures of a run from its samples, against figures worked out by hand. */
class ResultCalculatorTest {

    private static final Plan PLAN = new Plan(new ExecPlan(List.of("true", "sh_c"), 10, 2, 0),
            new FilePlan(List.of(), 0, Long.MAX_VALUE, 1 << 20), new FloorPlan(false, 1, 0));

    private static Sample ok(String metric, Phase phase, int i, long ns) {
        return new Sample(metric, i, phase, ns, 0, true, null);
    }

    @Test
    void warmUpsAndFailuresStayOutOfTheFigures() {
        List<Sample> samples = new ArrayList<>();
        samples.add(ok("space.ready", Phase.MEASURED, 1, 7_000));
        // Warm-ups far slower than anything measured: they must not move a single figure.
        samples.add(ok("exec.true", Phase.WARMUP, 1, 1_000_000));
        samples.add(ok("exec.true", Phase.WARMUP, 2, 2_000_000));
        long[] measured = {70, 10, 100, 40, 90, 20, 60, 30, 80, 50};
        for (int i = 0; i < measured.length; i++) {
            samples.add(ok("exec.true", Phase.MEASURED, i + 1, measured[i]));
        }
        samples.add(new Sample("exec.true", 11, Phase.MEASURED, 1, 0, false, "exit code 1"));
        samples.add(new Sample("exec.true", 12, Phase.MEASURED, 5, 0, false, "exit code 1"));
        samples.add(new Sample("exec.sh_c", 1, Phase.MEASURED, 9, 0, false, "exit code 127"));

        List<MetricResult> results = ResultCalculator.compute(4, PLAN, false, samples);

        assertThat(results).extracting(MetricResult::getMetric).containsExactly("space.ready", "exec.true", "exec.sh_c");
        assertThat(results).extracting(MetricResult::getPosition).containsExactly(0, 1, 2);
        MetricResult exec = results.get(1);
        assertThat(exec.getRunId()).isEqualTo(4);
        assertThat(exec.getN()).isEqualTo(10);
        assertThat(exec.getWarmups()).isEqualTo(2);
        assertThat(exec.getFailures()).isEqualTo(2);
        assertThat(exec.getMinNs()).isEqualTo(10);
        // Nearest rank on 10..100: p50 is rank ⌈5⌉ = 5 → 50; p95 rank ⌈9.5⌉ = 10 → 100; p99 → 100.
        assertThat(exec.getP50Ns()).isEqualTo(50);
        assertThat(exec.getP95Ns()).isEqualTo(100);
        assertThat(exec.getP99Ns()).isEqualTo(100);
        assertThat(exec.getMaxNs()).isEqualTo(100);
        assertThat(exec.getMeanNs()).isEqualTo(55.0);
        // Σ(x − 55)² = 8250; / (n − 1) = 916.67; √ = 30.2765.
        assertThat(exec.getStddevNs()).isCloseTo(30.2765, within(0.0001));

        MetricResult ready = results.get(0);
        assertThat(ready.getN()).isEqualTo(1);
        assertThat(ready.getP50Ns()).isEqualTo(7_000);
        assertThat(ready.getStddevNs()).isZero();

        MetricResult allFailed = results.get(2);
        assertThat(allFailed.getN()).isZero();
        assertThat(allFailed.getFailures()).isEqualTo(1);
        assertThat(allFailed.getP50Ns()).isNull();
    }

    @Test
    void theSplitIsTheP50OfTheAgentsTimeAndOfTheRestPerSample() {
        List<Sample> samples = new ArrayList<>();
        // A warm-up and a failure, far off, carry agent times that must not count.
        samples.add(new Sample("exec.true", 1, Phase.WARMUP, 9_000, 0, true, null, 8_000L));
        samples.add(new Sample("exec.true", 1, Phase.MEASURED, 100, 0, true, null, 40L));
        samples.add(new Sample("exec.true", 2, Phase.MEASURED, 200, 0, true, null, 150L));
        samples.add(new Sample("exec.true", 3, Phase.MEASURED, 300, 0, true, null, 90L));
        samples.add(new Sample("exec.true", 4, Phase.MEASURED, 5, 0, false, "exit code 1", 1L));
        samples.add(ok("exec.sh_c", Phase.MEASURED, 1, 70));

        List<MetricResult> results = ResultCalculator.compute(4, PLAN, false, samples);

        MetricResult exec = results.get(0);
        assertThat(exec.getMetric()).isEqualTo("exec.true");
        // agent 40, 150, 90 → sorted 40, 90, 150, rank ⌈1.5⌉ = 2 → 90; rest 60, 50, 210 → 50, 60, 210 → 60.
        // (The p50 of the rest is not p50 of round trip 200 minus 90: each is its own p50.)
        assertThat(exec.getP50Ns()).isEqualTo(200);
        assertThat(exec.getAgentP50Ns()).isEqualTo(90);
        assertThat(exec.getRestP50Ns()).isEqualTo(60);
        MetricResult withoutAgentTimes = results.get(1);
        assertThat(withoutAgentTimes.getAgentP50Ns()).isNull();
        assertThat(withoutAgentTimes.getRestP50Ns()).isNull();
    }

    /**
     * The tail's split: the samples at or above the p99 round trip (ties included), the p50 of their
     * agent time and of their rest, and the slowest sample's parts (ties: the larger agent time).
     */
    @Test
    void theTailIsTheSamplesAtOrAboveTheP99AndTheirOwnAgentTimeAndRest() {
        List<Sample> samples = new ArrayList<>();
        samples.add(new Sample("exec.true", 1, Phase.WARMUP, 90_000, 0, true, null, 80_000L));
        // Four slow samples, spread among 196 fast ones (agent 400 each): (ns, agent) = (9000, 3000), (5000, 100), (7000, 150),
        // (5000, 4000). Two of them spent less in the Space than the fast ones: the tail's figures are its own samples', not the
        // largest agent times and rests taken apart (that would give 400, not 150).
        long[][] slow = {{9_000, 3_000}, {5_000, 100}, {7_000, 150}, {5_000, 4_000}};
        int iteration = 0;
        for (int i = 1; i <= 196; i++) {
            if (i % 50 == 1) {
                long[] s = slow[i / 50];
                samples.add(new Sample("exec.true", ++iteration, Phase.MEASURED, s[0], 0, true, null, s[1]));
            }
            samples.add(new Sample("exec.true", ++iteration, Phase.MEASURED, 1_000 + i, 0, true, null, 400L));
        }
        samples.add(new Sample("exec.true", ++iteration, Phase.MEASURED, 99_000, 0, false, "exit code 1", 98_000L));
        // Two samples tie for the slowest: the one with more time in the Space is it.
        samples.add(new Sample("exec.sh_c", 1, Phase.MEASURED, 300, 0, true, null, 100L));
        samples.add(new Sample("exec.sh_c", 2, Phase.MEASURED, 300, 0, true, null, 200L));
        samples.add(new Sample("exec.sh_c", 3, Phase.MEASURED, 100, 0, true, null, 50L));

        List<MetricResult> results = ResultCalculator.compute(4, PLAN, false, samples);

        MetricResult exec = results.get(0);
        assertThat(exec.getN()).isEqualTo(200);
        // 200 samples: p99 is rank ⌈198⌉ = 198. Ranks 197 and 198 are both 5000, 199 is 7000, 200 is 9000:
        // the tail is 4 samples (the tie at 5000 included). Their agent times 3000, 100, 150, 4000 → 100, 150, 3000, 4000 →
        // rank 2 → 150; their rests 6000, 4900, 6850, 1000 → 1000, 4900, 6000, 6850 → rank 2 → 4900.
        assertThat(exec.getTailP99Ns()).isEqualTo(5_000);
        assertThat(exec.getTailN()).isEqualTo(4);
        assertThat(exec.getTailAgentP50Ns()).isEqualTo(150);
        assertThat(exec.getTailRestP50Ns()).isEqualTo(4_900);
        assertThat(exec.getSlowestAgentNs()).isEqualTo(3_000);
        assertThat(exec.getSlowestRestNs()).isEqualTo(6_000);

        MetricResult shC = results.get(1);
        // n = 3: p99 is rank 3 → 300, both 300s are the tail: agent 100, 200 → rank 1 → 100; rest 200, 100 → 100.
        assertThat(shC.getTailP99Ns()).isEqualTo(300);
        assertThat(shC.getTailN()).isEqualTo(2);
        assertThat(shC.getTailAgentP50Ns()).isEqualTo(100);
        assertThat(shC.getTailRestP50Ns()).isEqualTo(100);
        assertThat(shC.getSlowestAgentNs()).isEqualTo(200);
        assertThat(shC.getSlowestRestNs()).isEqualTo(100);
    }

    @Test
    void aMetricWithoutAgentTimesHasNoTailSplit() {
        List<MetricResult> results = ResultCalculator.compute(4, PLAN, false, List.of(ok("exec.true", Phase.MEASURED, 1, 70)));
        assertThat(results.get(0).getTailN()).isNull();
        assertThat(results.get(0).getSlowestAgentNs()).isNull();
    }
}
