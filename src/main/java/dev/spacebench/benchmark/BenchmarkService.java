package dev.spacebench.benchmark;

import dev.spacebench.environment.Build;
import dev.spacebench.environment.Environment;
import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.request.FieldError;
import dev.spacebench.request.InvalidRequestException;
import dev.spacebench.publish.Format;
import dev.spacebench.publish.RunSummaries;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.Run;
import dev.spacebench.run.deletion.RunDeletionGuard;
import dev.spacebench.run.RunNotFoundException;
import dev.spacebench.run.RunService;
import dev.spacebench.run.RunStateException;
import dev.spacebench.run.RunStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Publishes runs under benchmark slugs, and keeps every run a benchmark has shown. */
@Service
public class BenchmarkService implements RunDeletionGuard {

    /** Lower-case words joined by single hyphens, at most 64 characters. */
    static final Pattern SLUG = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
    static final int MAX_SLUG = 64;
    static final int MAX_QUESTION = 500;
    static final int MAX_SUMMARY = 2000;
    /** The metrics a headline quotes, most telling first (as the run page's headline). */
    static final List<ExecRoundTrip> HEADLINE = List.of(ExecRoundTrip.SH_C, ExecRoundTrip.TRUE, ExecRoundTrip.NOOP);

    private final BenchmarkRepository benchmarks;
    private final BenchmarkRunRepository entries;
    private final RunService runs;
    private final RunSummaries summaries;

    public BenchmarkService(BenchmarkRepository benchmarks, BenchmarkRunRepository entries, RunService runs, RunSummaries summaries) {
        this.benchmarks = benchmarks;
        this.entries = entries;
        this.runs = runs;
        this.summaries = summaries;
    }

    /** What POST /api/benchmarks takes; question and summary are optional. */
    public record PublishRequest(String slug, Long runId, String question, String summary) {
    }

    /**
     * Publishes a SUCCEEDED run under a slug: a new benchmark, or the slug's new current answer
     * (the previous one moves into the history). Publishing the current run again changes nothing
     * but a question or summary given.
     *
     * @throws InvalidRequestException naming slug, runId, question or summary when out of range
     * @throws RunNotFoundException if there is no such run
     * @throws RunStateException if the run did not succeed
     */
    @Transactional
    public BenchmarkView publish(PublishRequest request) {
        List<FieldError> errors = new ArrayList<>();
        String slug = request.slug();
        if (slug == null || slug.length() > MAX_SLUG || !SLUG.matcher(slug).matches()) {
            errors.add(new FieldError("slug", "must be 1 to " + MAX_SLUG + " lower-case letters and digits in words joined "
                    + "by single hyphens, e.g. command-round-trip-sandbox"));
        }
        if (request.runId() == null) {
            errors.add(new FieldError("runId", "is required: the id of a SUCCEEDED run"));
        }
        if (request.question() != null && (request.question().isBlank() || request.question().length() > MAX_QUESTION)) {
            errors.add(new FieldError("question", "must be 1 to " + MAX_QUESTION + " characters when given"));
        }
        if (request.summary() != null && (request.summary().isBlank() || request.summary().length() > MAX_SUMMARY)) {
            errors.add(new FieldError("summary", "must be 1 to " + MAX_SUMMARY + " characters when given"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
        Run run = runs.get(request.runId());
        if (run.getStatus() != RunStatus.SUCCEEDED) {
            throw new RunStateException("run " + run.getId() + " is " + run.getStatus() + "; only a SUCCEEDED run can be published");
        }
        Instant now = Instant.now();
        Benchmark benchmark = benchmarks.findBySlug(slug).orElseGet(() -> benchmarks.save(new Benchmark(slug,
                request.question() == null ? defaultQuestion(run) : request.question(), request.summary(), now)));
        if (request.question() != null) {
            benchmark.setQuestion(request.question());
        }
        if (request.summary() != null) {
            benchmark.setSummary(request.summary());
        }
        List<BenchmarkRun> history = entries.findByBenchmarkIdOrderByPublishedAtDescIdDesc(benchmark.getId());
        if (history.isEmpty() || !history.get(0).getRunId().equals(run.getId())) {
            entries.save(new BenchmarkRun(benchmark.getId(), run.getId(), now));
        }
        return view(benchmark);
    }

    private static String defaultQuestion(Run run) {
        String kind = run.getKind();
        return "How long does a command round trip, and a file transfer, into a" + ("aeiou".indexOf(kind.charAt(0)) >= 0 ? "n " : " ")
                + kind + " Space take?";
    }

    /** Every benchmark, by slug. */
    @Transactional(readOnly = true)
    public List<BenchmarkView> list() {
        return benchmarks.findAllByOrderBySlugAsc().stream().map(this::view).toList();
    }

    /** @throws BenchmarkNotFoundException if no benchmark has this slug */
    @Transactional(readOnly = true)
    public BenchmarkView get(String slug) {
        return view(find(slug));
    }

    /**
     * Removes the benchmark and its history; its runs become ordinary runs again (deletable).
     *
     * @throws BenchmarkNotFoundException if no benchmark has this slug
     */
    @Transactional
    public void unpublish(String slug) {
        Benchmark benchmark = find(slug);
        entries.deleteByBenchmarkId(benchmark.getId());
        benchmarks.delete(benchmark);
    }

    @Override
    public String whyKept(long runId) {
        List<BenchmarkRun> published = entries.findByRunId(runId);
        if (published.isEmpty()) {
            return null;
        }
        return "it is published (benchmark " + published.stream().map(e -> benchmarks.findById(e.getBenchmarkId())
                .map(Benchmark::getSlug).orElse("?")).distinct().sorted().reduce((a, b) -> a + ", " + b).orElse("")
                + "); unpublish it first";
    }

    private Benchmark find(String slug) {
        return benchmarks.findBySlug(slug).orElseThrow(() -> new BenchmarkNotFoundException(slug));
    }

    private BenchmarkView view(Benchmark benchmark) {
        List<BenchmarkView.HistoryEntry> history = entries.findByBenchmarkIdOrderByPublishedAtDescIdDesc(benchmark.getId())
                .stream().map(this::entry).toList();
        BenchmarkView.HistoryEntry current = history.get(0);
        Run run = runs.get(current.runId());
        Environment env = run.getEnvironment();
        String machine = env == null ? "not recorded"
                : env.host().cpuModel() + " × " + env.host().cpuCount() + ", " + Format.memory(env.host().memoryBytes());
        return new BenchmarkView(benchmark.getSlug(), benchmark.getQuestion(),
                benchmark.getSummary() == null ? null : benchmark.getSummary(), run.getId(), run.getKind(), machine,
                summaries.of(run).headline(), run.getFinishedAt(), current.checkedText(), current.version(), current.n(), history);
    }

    private BenchmarkView.HistoryEntry entry(BenchmarkRun published) {
        Run run = runs.get(published.getRunId());
        Build build = run.getBuild();
        List<MetricResult> results = runs.results(run.getId());
        Optional<ExecRoundTrip> metric = HEADLINE.stream()
                .filter(m -> results.stream().anyMatch(r -> r.getMetric().equals(m.id()) && r.getP50Ns() != null)).findFirst();
        Optional<MetricResult> result = metric.flatMap(m -> results.stream().filter(r -> r.getMetric().equals(m.id())).findFirst());
        return new BenchmarkView.HistoryEntry(run.getId(), published.getPublishedAt(), Format.date(run.getFinishedAt()),
                build == null ? "unknown" : build.version(), metric.map(ExecRoundTrip::label).orElse(null),
                result.map(MetricResult::getP50Ns).orElse(null), result.map(r -> Format.duration(r.getP50Ns())).orElse("—"),
                result.map(MetricResult::getP99Ns).orElse(null), result.map(r -> Format.duration(r.getP99Ns())).orElse("—"),
                result.map(MetricResult::getN).orElse(0));
    }
}
