package dev.spacebench.compare;

import dev.spacebench.baseline.Baseline;
import dev.spacebench.baseline.BaselineFigures;
import dev.spacebench.baseline.BaselineService;
import dev.spacebench.metric.Metric;
import dev.spacebench.publish.RunReportBuilder;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.Run;
import dev.spacebench.run.RunService;
import dev.spacebench.metric.InEntry;
import dev.spacebench.run.samples.BlockMedians;
import dev.spacebench.run.samples.SampleRows;
import dev.spacebench.run.samples.SortedSamples;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.stereotype.Component;

/** Builds comparison sides from runs and baselines. */
@Component
public class Sides {

    private final RunService runs;
    private final SampleRows samples;
    private final SortedSamples sorted;
    private final RunReportBuilder reports;
    private final BaselineService baselines;
    private final BlockMedians blockMedians;

    public Sides(RunService runs, SampleRows samples, SortedSamples sorted, RunReportBuilder reports, BaselineService baselines,
                 BlockMedians blockMedians) {
        this.blockMedians = blockMedians;
        this.runs = runs;
        this.samples = samples;
        this.sorted = sorted;
        this.reports = reports;
        this.baselines = baselines;
    }

    /** @throws dev.spacebench.run.RunNotFoundException if there is no such run */
    public Side run(long id) {
        Run run = runs.get(id);
        return runSide(run, "run " + id + " (" + run.getKind() + " Space, " + run.getStatus() + ")");
    }

    /** @throws dev.spacebench.baseline.BaselineNotFoundException naming {@code field} */
    public Side baseline(String name, String field) {
        Baseline baseline = baselines.get(name, field);
        if (baseline.getRunId() != null) {
            return runSide(runs.get(baseline.getRunId()), "baseline " + name + ": " + baseline.getLabel());
        }
        Map<String, BaselineFigures> figures = new LinkedHashMap<>();
        baselines.figures(baseline).forEach(f -> figures.put(f.metric(), f));
        Map<String, String> environment = new LinkedHashMap<>(baselines.environment(baseline));
        environment.put("Figures", baseline.getNote());
        return new Side("baseline " + name + ": " + baseline.getLabel(), "/api/baselines/" + name, false, figures,
                environment, metric -> new long[0]);
    }

    /** @throws dev.spacebench.run.RunNotFoundException if there is no such run */
    dev.spacebench.run.Run stored(long id) {
        return runs.get(id);
    }

    /**
     * Entry {@code entry} (1-based) of comparison run {@code id} as a side: its metrics under their base ids
     * ({@code entry.2.exec.noop} as {@code exec.noop}), its samples and block medians, so that two entries of one run
     * compare as two runs do, their blocks paired (the same rounds of one schedule).
     *
     * @throws dev.spacebench.run.RunNotFoundException if there is no such run
     * @throws IllegalArgumentException if the run is not a comparison run or has no such entry
     */
    public Side entry(long id, int entry) {
        Run run = runs.get(id);
        if (!run.isComparison() || entry < 1 || entry > run.getCompareEntries().size()) {
            throw new IllegalArgumentException("run " + id + " has no entry " + entry);
        }
        var spec = run.getCompareEntries().get(entry - 1);
        Side whole = runSide(run, "run " + id + ", entry " + spec.label() + " (" + spec.space().kind() + " Space, " + run.getStatus() + ")");
        Map<String, BaselineFigures> figures = new LinkedHashMap<>();
        whole.figures().forEach((metric, f) -> {
            if (InEntry.entryOf(metric) == entry) {
                figures.put(InEntry.baseId(metric), f);
            }
        });
        Map<String, java.util.SortedMap<Integer, Long>> blocks = new LinkedHashMap<>();
        whole.blocks().forEach((metric, b) -> {
            if (!Metric.isFloor(metric) && InEntry.entryOf(metric) == entry) {
                blocks.put(InEntry.baseId(metric), b);
            }
        });
        return new Side(whole.title(), whole.link(), true, figures, whole.environment(),
                metric -> whole.samples().apply(InEntry.id(metric, entry)), whole.interleavedPlan(), blocks);
    }

    private Side runSide(Run run, String title) {
        long id = run.getId();
        Map<String, BaselineFigures> figures = new LinkedHashMap<>();
        for (MetricResult r : runs.results(id)) {
            if (r.getP50Ns() != null && !Metric.isFloor(r.getMetric())) {
                figures.put(r.getMetric(), BaselineFigures.of(r));
            }
        }
        Map<String, String> environment = new LinkedHashMap<>();
        reports.facts(id).forEach(f -> environment.put(f.label(), f.value()));
        environment.put("Figures", "raw samples in run " + id);
        // Read once for every metric the comparison asks about: the samples stored sorted with the
        // run's figures, or (a run still going, or ended by another app) one pass over its rows.
        var read = new Object() {
            Map<String, long[]> byMetric;
        };
        return new Side(title, "/runs/" + id, true, figures, environment, metric -> {
            if (read.byMetric == null) {
                read.byMetric = sorted.read(id);
                if (read.byMetric.isEmpty()) {
                    read.byMetric = samples.measuredNsByMetric(id);
                }
            }
            return read.byMetric.getOrDefault(metric, new long[0]);
        }, run.getPlan().interleaved() ? run.getPlan() : null, run.getPlan().interleaved() ? blockMedians.read(id) : Map.of());
    }
}
