package dev.spacebench.publish;

import dev.spacebench.environment.Build;
import dev.spacebench.environment.Environment;
import dev.spacebench.metric.Kind;
import dev.spacebench.metric.SpaceLifecycle;
import dev.spacebench.plan.Plan;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.stats.PercentileInterval;
import java.time.Instant;
import java.util.List;

/**
 * Everything a run's published page says, in the page's order, built once by
 * {@link RunReportBuilder} and rendered by the HTML template and by {@link PageMarkdown} alike, so
 * the two can never disagree. Times in ns; formatted text beside each figure. Grouped by what the
 * page shows: how the run ended, when, its figures, its sweep, the prose, the set-up, the files.
 *
 * @param title the question the page answers
 * @param headline one sentence answering it with the headline figure (or saying why it cannot)
 * @param paired the run's ratios with their 95% intervals (each Space metric over its floor, each channel over the
 *     agent, a comparison run's entries over the first), its drift check and its Channels table (issues 29 and 27)
 */
public record RunReport(
        long id,
        String kind,
        String title,
        String headline,
        State state,
        Times times,
        Figures figures,
        Sweep sweep,
        Prose prose,
        Setup setup,
        Downloads downloads,
        Paired paired) {

    /**
     * How the run ended (or stands).
     *
     * @param failedSamples measured iterations that failed, all metrics
     * @param failedByMetric e.g. "exec.sh_c: 2, file.upload.512MiB: 1"; empty when none failed
     */
    public record State(String status, boolean finished, String failureReason, int failedSamples, String failedByMetric,
                          long sampleCount) {
    }

    /** When the run was queued, started and finished; its wall time as text. */
    public record Times(Instant createdAt, Instant startedAt, Instant finishedAt, String wallTime) {
    }

    /**
     * The measured figures, table by table.
     *
     * @param split where the time went and what Spacebench and the Space added above the floor; every page that
     *     shows the run (its own, a benchmark's, the static site's, page.md) renders it from here
     */
    public record Figures(List<ExecRow> exec, List<FileRow> files, List<SpaceRow> space, List<FloorRow> floor, Split split,
                          List<Plots.Plot> plots) {
        Figures withPlots(List<Plots.Plot> other) {
            return new Figures(exec, files, space, floor, split, other);
        }
    }

    /** The page's prose: how the run was measured (or what went wrong), its caveats, its questions answered. */
    public record Prose(List<String> method, List<String> caveats, List<Question> questions) {
    }

    /**
     * What the run ran on and how to run it again: the environment and build tables, the Reproduce
     * block, and the stored records they come from.
     *
     * @param upstreamRepository the Reproduce block clones Spacebench's upstream repository, the default of
     *     {@code spacebench.publish.repository-url}, not one the page's host set
     */
    public record Setup(List<Fact> environment, List<Fact> build, List<String> reproduce, boolean upstreamRepository,
                        SpaceSpec spaceSpec, Plan plan, Environment environmentDetail, Build buildDetail) {
    }

    /**
     * The same report with its download and plot links relative to the run's own folder
     * ({@code samples.csv}, {@code plots/exec.true.svg}…), as where page.md is served and in an
     * exported site.
     */
    public RunReport withRelativeLinks() {
        String prefix = "/api/runs/" + id + "/";
        java.util.function.UnaryOperator<String> relative = url -> url.startsWith(prefix) ? url.substring(prefix.length()) : url;
        Downloads links = new Downloads(downloads.files().stream()
                .map(d -> new Download(d.format(), d.name(), relative.apply(d.url()), d.title(), d.description())).toList());
        List<Plots.Plot> relativePlots = figures.plots().stream().map(p -> new Plots.Plot(p.id(), p.title(), relative.apply(p.url()))).toList();
        return new RunReport(id, kind, title, headline, state, times, figures.withPlots(relativePlots),
                sweep == null ? null : sweep.withPlots(sweep.plots().stream()
                        .map(p -> new Plots.Plot(p.id(), p.title(), relative.apply(p.url()))).toList()),
                prose, setup, links, paired);
    }

    /**
     * A formatted figure with the exact value it came from and, for percentiles, its 95%
     * confidence interval.
     *
     * @param ci e.g. "2.80 ms – 3.01 ms"; null when the figure has no interval (slowest, n/a)
     * @param note what the reader must know about the interval, e.g. that no sample bounds it
     *     from above; null when there is nothing to say
     */
    public record Figure(Long ns, String text, Long ciLowerNs, Long ciUpperNs, String ci, String note) {
        static Figure of(Long ns) {
            return new Figure(ns, Format.duration(ns), null, null, null, null);
        }

        static Figure of(Long ns, PercentileInterval interval, String percentile, int n) {
            // One sample has no interval worth printing: the figure is that sample.
            if (ns == null || interval == null || n < 2) {
                return of(ns);
            }
            if (!interval.upperBounded() && !interval.lowerBounded()) {
                return new Figure(ns, Format.duration(ns), null, null, null,
                        "n = " + n + " is too few samples for a 95% interval");
            }
            String note = null;
            if (!interval.upperBounded()) {
                note = "n = " + n + " is too few to bound the " + percentile + " above: it may exceed every sample";
            } else if (interval.upperIsSlowest(n)) {
                note = "upper end is the slowest sample";
            }
            if (!interval.lowerBounded()) {
                note = "n = " + n + " is too few to bound the " + percentile + " below";
            }
            String upper = interval.upperBounded() ? Format.duration(interval.upperNs()) : "unbounded";
            String lower = interval.lowerBounded() ? Format.duration(interval.lowerNs()) : "unbounded";
            return new Figure(ns, Format.duration(ns), interval.lowerNs(), interval.upperNs(), lower + " – " + upper, note);
        }
    }

    /**
     * One exec metric.
     *
     * @param metric e.g. {@code exec.sh_c}
     * @param label e.g. "sh -c true"
     * @param n measured samples behind the figures
     */
    public record ExecRow(String metric, String label, Figure p50, Figure p95, Figure p99, Figure slowest,
                          int n, int warmups, int failures) {
    }

    /**
     * One file size: upload and download.
     *
     * @param failures measured uploads and downloads that failed
     * @param uploadFailures measured uploads that failed
     */
    public record FileRow(long bytes, String size, String lane, int warmups, int failures, int uploadFailures,
                          Transfer upload, Transfer download) {
    }

    /**
     * One direction of a file size's transfer.
     *
     * @param metric e.g. {@code file.upload.1MiB}
     * @param n measured samples behind the figures
     * @param mibPerSecond size / p50, MiB/s; null without a p50
     */
    public record Transfer(String metric, int n, Figure p50, Double mibPerSecond, String mibPerSecondText) {
    }

    /** Space life-cycle figures (ready, delete). */
    public record SpaceRow(String metric, String label, Figure p50, Figure slowest, int n, int failures) {
    }

    /**
     * One floor measurement: what the host itself costs, outside any Space.
     *
     * @param label e.g. "start true on the host (agent's Exec code)"
     */
    public record FloorRow(String metric, String label, Figure p50, Figure p99, int n) {
    }

    /**
     * The concurrency sweep (issue 13); null in a run without one.
     *
     * @param hostCpus the host's CPU count, marked on the plots; null when not recorded
     * @param rows per level, its Spaces' burst create (ready), each exec metric, the file size, and delete
     * @param knee the sentence under the headline: where p99 first exceeds twice the single-Space p99, or that it did not
     * @param kneeLevel that level; null when not reached (or no single-Space p99 to compare with)
     * @param kneeMetric the metric the knee is read on, e.g. {@code exec.sh_c}
     * @param singleSpaceP99Ns its single-Space p99; null when there is none
     */
    public record Sweep(Integer hostCpus, List<Integer> levels, List<SweepRow> rows, String knee, Integer kneeLevel,
                        String kneeMetric, Long singleSpaceP99Ns, List<Plots.Plot> plots) {
        Sweep withPlots(List<Plots.Plot> other) {
            return new Sweep(hostCpus, levels, rows, knee, kneeLevel, kneeMetric, singleSpaceP99Ns, other);
        }

        /** The exec (and file) rows, level by level. */
        public List<SweepRow> loops() {
            return rows.stream().filter(r -> Kind.ofId(r.metric()) != Kind.SPACE).toList();
        }

        /** The burst-create rows (space.ready), one per level. */
        public List<SweepRow> ready() {
            return rows.stream().filter(r -> r.metric().equals(SpaceLifecycle.READY.id())).toList();
        }
    }

    /**
     * One metric at one level of the sweep, pooled over the level's Spaces.
     *
     * @param metric the metric measured, e.g. {@code exec.sh_c}; {@code id} its sweep id {@code sweep.4.exec.sh_c}
     * @param latency the pooled percentiles
     * @param spaces the p50s of the level's fastest and slowest Space
     * @param throughput how many samples per second of the level's wall time
     */
    public record SweepRow(int level, String metric, String id, String label, Percentiles latency, int n, int failures,
                           SpaceSpread spaces, Throughput throughput) {
    }

    /** p50, p95, p99 and the slowest sample. */
    public record Percentiles(Figure p50, Figure p95, Figure p99, Figure slowest) {
    }

    /** @param fastest p50 of a level's fastest Space; {@code slowest} of its slowest */
    public record SpaceSpread(Figure fastest, Figure slowest) {
    }

    /**
     * @param perSecond measured ok samples of all the level's Spaces per second of wall time
     * @param wall the level's wall time for this metric (for ready: until the last Space answered)
     */
    public record Throughput(Double perSecond, String perSecondText, Figure wall) {
    }

    /** A labelled fact for the environment and build tables. */
    public record Fact(String label, String value) {
    }

    public record Question(String question, String answer) {
    }

    /**
     * The run's files, one entry per file of each {@code RunExporter}, in their order.
     */
    public record Downloads(List<Download> files) {

        /** The files grouped by format, in order: one line each on the page. */
        public List<List<Download>> byFormat() {
            java.util.Map<String, List<Download>> groups = new java.util.LinkedHashMap<>();
            files.forEach(d -> groups.computeIfAbsent(d.format(), f -> new java.util.ArrayList<>()).add(d));
            return List.copyOf(groups.values());
        }

        public String samplesCsv() {
            return files.stream().filter(d -> d.format().equals("samples.csv")).map(Download::url).findFirst().orElse(null);
        }
    }

    /**
     * @param format the exporter's id, e.g. "samples.csv" or "hlog"
     * @param name the file name, e.g. "exec.noop.hlog"
     * @param title the format's full name where the file name does not say it, or null
     * @param description what the format holds
     */
    public record Download(String format, String name, String url, String title, String description) {
    }
}
