package dev.spacebench.publish;

import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.metric.Metric;
import dev.spacebench.metric.Transfer;
import dev.spacebench.metric.Via;
import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.Plan;
import dev.spacebench.run.MetricResult;
import dev.spacebench.stats.Throughput;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The page's Channels table (issue 27, point 2): for each channel the run measured the Space through, p50 and p99
 * of {@code true} and {@code sh -c true} and MiB/s at the p50 of each file size, with the ratio of its time to the
 * agent's ({@link PairedFigures}: block-paired with a 95% interval where the run was interleaved). A metric the
 * channel could not do shows the channel's stored reason; one neither measured nor skipped (the run ended first, or a
 * run older than the stored reasons) says so. Never a zero, never a blank.
 *
 * @param columns the table's columns, in order
 * @param rows one per channel, the agent first
 */
public record Channels(List<Column> columns, List<Row> rows) {

    /**
     * @param base the agent's metric id of the column, e.g. {@code exec.true} or {@code file.upload.1MiB}
     * @param label e.g. "true" or "upload 1 MiB"
     * @param figure "p50", "p99" or "MiB/s"
     */
    public record Column(String base, String label, String figure) {
    }

    /** @param channel e.g. "agent", "ssh" */
    public record Row(String channel, List<Cell> cells) {
    }

    /**
     * One figure of one channel.
     *
     * @param metric the stored id, e.g. {@code via.ssh.exec.true}
     * @param value the figure, e.g. "1.20 ms" or "850 MiB/s"; null when skipped or not measured
     * @param skipped the channel's reason for not doing it; null when it did
     * @param notMeasured neither measured nor skipped (the run ended before it, or it failed every time)
     * @param pair its time against the agent's (p50 and MiB/s cells of a channel other than the agent); null otherwise
     */
    public record Cell(String metric, String value, String skipped, boolean notMeasured, PairedFigures.Pair pair) {
    }

    public boolean isEmpty() {
        return rows.size() < 2;
    }

    /** The metrics whose skip reason this table shows (none when it is not shown): the page says it here only. */
    public java.util.Set<String> shownSkips() {
        if (isEmpty()) {
            return java.util.Set.of();
        }
        return rows.stream().flatMap(r -> r.cells().stream()).filter(c -> c.skipped() != null).map(Cell::metric)
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    /**
     * @param channels the channels the run's Space served, in its order (the agent among them unless it has none)
     * @param skipped metric id → the channel's reason it was not run (the run's Space facts, {@link Paired#skipped})
     * @return the table; {@link #isEmpty()} when the run measured through the agent alone
     */
    public static Channels of(Plan plan, List<String> channels, List<MetricResult> results, Map<String, String> skipped,
                              PairedFigures pairs) {
        List<Column> columns = new ArrayList<>();
        for (ExecRoundTrip metric : List.of(ExecRoundTrip.TRUE, ExecRoundTrip.SH_C)) {
            if (plan.exec().metrics().contains(metric.command().wireName())) {
                columns.add(new Column(metric.id(), metric.shortLabel(), "p50"));
                columns.add(new Column(metric.id(), metric.shortLabel(), "p99"));
            }
        }
        for (FileSize size : plan.files().sizes()) {
            for (Transfer t : List.of(Transfer.upload(size.bytes()), Transfer.download(size.bytes()))) {
                columns.add(new Column(t.id(), t.label(), "MiB/s"));
            }
        }
        Set<String> all = new LinkedHashSet<>();
        // The agent first where the Space has one (a command target has none: no agent row of "not measured" cells).
        if (channels.contains(Via.AGENT)) {
            all.add(Via.AGENT);
        }
        all.addAll(channels);
        for (MetricResult r : results) {
            if (Metric.parse(r.getMetric()).orElse(null) instanceof Via via) {
                all.add(via.channel());
            }
        }
        List<Row> rows = new ArrayList<>();
        for (String channel : all) {
            List<Cell> cells = new ArrayList<>();
            for (Column column : columns) {
                Metric base = Metric.of(column.base());
                String id = Via.of(base, channel).id();
                Optional<MetricResult> result = RunReportBuilder.find(results, id).filter(r -> r.getN() > 0 && r.getP50Ns() != null);
                if (result.isEmpty()) {
                    String reason = skipped.get(id);
                    cells.add(new Cell(id, null, reason, reason == null, null));
                    continue;
                }
                MetricResult r = result.get();
                String value = switch (column.figure()) {
                    case "p50" -> Format.duration(r.getP50Ns());
                    case "p99" -> Format.duration(r.getP99Ns());
                    default -> Format.mibPerSecond(Throughput.mibPerSecondOrNull(r.getBytes(), r.getP50Ns()));
                };
                PairedFigures.Pair pair = channel.equals(Via.AGENT) || column.figure().equals("p99") ? null
                        : pairs.find(PairedFigures.CHANNEL, id).orElse(null);
                cells.add(new Cell(id, value, null, false, pair));
            }
            rows.add(new Row(channel, cells));
        }
        return new Channels(List.copyOf(columns), List.copyOf(rows));
    }
}
