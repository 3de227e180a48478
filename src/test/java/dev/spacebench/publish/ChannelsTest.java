package dev.spacebench.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.plan.ExecPlan;
import dev.spacebench.plan.FilePlan;
import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.Plan;
import dev.spacebench.plan.Plans;
import dev.spacebench.run.MetricResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Channels table: a cell per channel and figure, never a zero or a blank for what a channel did not measure. */
class ChannelsTest {

    private static MetricResult result(String metric, long bytes, long p50, long p99) {
        return new MetricResult(1L, metric, 0, bytes, null, 11, 0, 0, p50, p50, p50, p99, p99, (double) p50, 0.0, null, null);
    }

    @Test
    void eachChannelGetsEveryColumnWithItsReasonWhereItSkippedAndNotMeasuredWhereNeither() {
        Plan plan = Plans.withDefaults(new Plan(new ExecPlan(List.of("noop", "true"), 11, 0, 0),
                new FilePlan(List.of(new FileSize(1L << 20, 11)), 0, null, null)));
        List<MetricResult> results = List.of(
                result("exec.true", 0, 1_000_000, 2_000_000),
                result("via.ssh.exec.true", 0, 4_000_000, 9_000_000),
                result("file.upload.1MiB", 1L << 20, 10_000_000, 12_000_000),   // 1 MiB in 10 ms: 100 MiB/s
                result("file.download.1MiB", 1L << 20, 5_000_000, 6_000_000),   // 200 MiB/s
                result("via.ssh.file.upload.1MiB", 1L << 20, 40_000_000, 41_000_000)); // 25 MiB/s
        Map<String, String> skipped = Map.of("via.ssh.file.download.1MiB", "no download through this channel");

        Channels table = Channels.of(plan, List.of("agent", "ssh"), results, skipped, PairedFigures.of(results, Map.of(), Map.of()));

        // No sh -c true in the plan: true's p50 and p99, then upload and download of 1 MiB.
        assertThat(table.columns()).extracting(c -> c.label() + " " + c.figure())
                .containsExactly("true p50", "true p99", "upload 1 MiB MiB/s", "download 1 MiB MiB/s");
        assertThat(table.rows()).extracting(Channels.Row::channel).containsExactly("agent", "ssh");
        List<Channels.Cell> agent = table.rows().get(0).cells();
        List<Channels.Cell> ssh = table.rows().get(1).cells();
        assertThat(agent).extracting(Channels.Cell::value).containsExactly("1.00 ms", "2.00 ms", "100", "200");
        assertThat(agent).allMatch(c -> c.pair() == null);
        assertThat(ssh.get(0).value()).isEqualTo("4.00 ms");
        // No blocks here: the unpaired ratio of the p50s, 4 ms / 1 ms, with no interval (no sorted samples given).
        assertThat(ssh.get(0).pair().ratio()).isEqualTo(4.0);
        assertThat(ssh.get(0).pair().paired()).isFalse();
        assertThat(ssh.get(1).pair()).as("p99 carries no ratio").isNull();
        assertThat(ssh.get(2).value()).isEqualTo("25.0");
        assertThat(ssh.get(2).pair().ratio()).isEqualTo(4.0);
        assertThat(ssh.get(3).value()).isNull();
        assertThat(ssh.get(3).skipped()).isEqualTo("no download through this channel");
        assertThat(ssh.get(3).notMeasured()).isFalse();

        // A run cut short: neither measured nor skipped says so.
        Channels cut = Channels.of(plan, List.of("agent", "ssh"), results, Map.of(), PairedFigures.of(results, Map.of(), Map.of()));
        assertThat(cut.rows().get(1).cells().get(3).notMeasured()).isTrue();
        assertThat(cut.rows().get(1).cells().get(3).skipped()).isNull();
    }

    @Test
    void aRunThroughTheAgentAloneHasNoTable() {
        Plan plan = Plans.withDefaults(new Plan(new ExecPlan(List.of("true"), 11, 0, 0), new FilePlan(List.of(), 0, null, null)));
        List<MetricResult> results = List.of(result("exec.true", 0, 1_000_000, 2_000_000));
        assertThat(Channels.of(plan, List.of("agent"), results, Map.of(), PairedFigures.of(results, Map.of(), Map.of())).isEmpty())
                .isTrue();
    }
}
