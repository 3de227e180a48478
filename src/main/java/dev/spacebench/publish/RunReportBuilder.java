package dev.spacebench.publish;

import dev.spacebench.environment.Build;
import dev.spacebench.environment.Environment;
import dev.spacebench.environment.SystemFacts;
import dev.spacebench.environment.Virtualization;
import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.metric.PlanMetrics;
import dev.spacebench.metric.SpaceLifecycle;
import dev.spacebench.metric.Transfer;
import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.Plan;
import dev.spacebench.publish.export.RunExporters;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.Run;
import dev.spacebench.run.RunRequest;
import dev.spacebench.run.samples.RunSampleRepository;
import dev.spacebench.run.RunService;
import dev.spacebench.run.RunStatus;
import dev.spacebench.run.samples.SortedSamples;
import dev.spacebench.space.SpaceFacts;
import dev.spacebench.space.SpaceKinds;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.stats.PercentileInterval;
import dev.spacebench.stats.Throughput;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Builds a run's {@link RunReport} from what the database holds. */
@Component
public class RunReportBuilder {

    private static final JsonMapper READER = JsonMapper.builder().build();

    private final RunService runs;
    private final JsonMapper json;
    private final RunSampleRepository samples;
    private final Plots plots;
    private final RunExporters exporters;
    private final String repositoryUrl;
    private final boolean upstreamRepository;
    private final SortedSamples sorted;
    private final Paired.Reader paired;

    public RunReportBuilder(RunService runs, JsonMapper json, RunSampleRepository samples, Plots plots, RunExporters exporters,
                            PublishSettings settings, SortedSamples sorted, Paired.Reader paired) {
        this.sorted = sorted;
        this.paired = paired;
        this.runs = runs;
        this.json = json;
        this.samples = samples;
        this.plots = plots;
        this.exporters = exporters;
        this.repositoryUrl = settings.repositoryUrl();
        this.upstreamRepository = settings.upstream();
    }

    /**
     * The run's stored environment and build as the page lists them (its "Environment" then its
     * "Build" facts), read without building the rest of the report.
     *
     * @throws dev.spacebench.run.RunNotFoundException if there is no such run
     */
    public List<RunReport.Fact> facts(long id) {
        Run run = runs.get(id);
        List<RunReport.Fact> facts = new ArrayList<>(environment(run.getEnvironment(), run.getSpaceSpec().redacted(), run.getKind(), java.util.Set.of()));
        facts.addAll(buildFacts(run.getBuild()));
        return facts;
    }

    /** @throws dev.spacebench.run.RunNotFoundException if there is no such run */
    public RunReport build(long id) {
        return build(id, null);
    }

    /**
     * The report as a published site shows it: its environment without the publisher's paths, pids
     * and host name ({@link PublishedEnvironment}); the stored run is untouched.
     *
     * @throws dev.spacebench.run.RunNotFoundException if there is no such run
     */
    public RunReport buildPublished(long id, PublishedEnvironment published) {
        return build(id, published);
    }

    private RunReport build(long id, PublishedEnvironment published) {
        Run run = runs.get(id);
        List<MetricResult> results = runs.results(id);
        Plan plan = run.getPlan();
        // Published pages and exports never carry an attach token.
        SpaceSpec spec = run.getSpaceSpec().redacted();
        Environment env = published == null ? run.getEnvironment() : published.redact(run.getEnvironment());
        String testbed = published == null ? run.getTestbed() : published.testbed(run.getTestbed(), run.getEnvironment());
        Build build = run.getBuild();
        String kind = run.getKind();

        List<RunReport.ExecRow> exec = new ArrayList<>();
        for (ExecRoundTrip metric : PlanMetrics.exec(plan)) {
            find(results, metric.id()).ifPresent(r -> {
                Map<String, PercentileInterval> ci = r.getIntervals();
                exec.add(new RunReport.ExecRow(r.getMetric(), metric.label(),
                        RunReport.Figure.of(r.getP50Ns(), ci.get("p50"), "p50", r.getN()),
                        RunReport.Figure.of(r.getP95Ns(), ci.get("p95"), "p95", r.getN()),
                        RunReport.Figure.of(r.getP99Ns(), ci.get("p99"), "p99", r.getN()),
                        RunReport.Figure.of(r.getMaxNs()), r.getN(), r.getWarmups(), r.getFailures()));
            });
        }
        List<RunReport.FileRow> files = new ArrayList<>();
        for (FileSize size : plan.files().sizes()) {
            String upload = Transfer.upload(size.bytes()).id();
            String download = Transfer.download(size.bytes()).id();
            Optional<MetricResult> up = find(results, upload);
            Optional<MetricResult> down = find(results, download);
            if (up.isEmpty() && down.isEmpty()) {
                continue;
            }
            Double upRate = rate(up);
            Double downRate = rate(down);
            files.add(new RunReport.FileRow(size.bytes(), Format.bytes(size.bytes()),
                    up.or(() -> down).map(MetricResult::getLane).orElse("—"),
                    up.map(MetricResult::getWarmups).orElse(0),
                    up.map(MetricResult::getFailures).orElse(0) + down.map(MetricResult::getFailures).orElse(0),
                    up.map(MetricResult::getFailures).orElse(0),
                    new RunReport.Transfer(upload, up.map(MetricResult::getN).orElse(0), p50(up), upRate, Format.mibPerSecond(upRate)),
                    new RunReport.Transfer(download, down.map(MetricResult::getN).orElse(0), p50(down), downRate,
                            Format.mibPerSecond(downRate))));
        }
        List<RunReport.SpaceRow> space = new ArrayList<>();
        for (SpaceLifecycle metric : SpaceLifecycle.values()) {
            find(results, metric.id()).ifPresent(r -> space.add(spaceRow(r, metric.description())));
        }

        List<RunReport.FloorRow> floor = Floor.rows(results);
        SpaceFacts spaceFacts = env == null ? null : env.spaceFacts();
        Paired comparisons = paired.read(run, plan, results, env);
        Split split = Split.of(results, env, sorted.read(id, Split.comparedMetrics()), comparisons.figures());

        Duration wall = run.getStartedAt() != null && run.getFinishedAt() != null
                ? Duration.between(run.getStartedAt(), run.getFinishedAt()) : null;
        String version = build == null ? "unknown" : build.version();
        String title = title(plan, kind);
        List<MetricResult> measured = results;
        int failures = measured.stream().mapToInt(MetricResult::getFailures).sum();
        int warmups = measured.stream().mapToInt(MetricResult::getWarmups).sum();

        long sampleCount = run.getSampleCount() != null ? run.getSampleCount() : samples.countByRunId(id);
        return new RunReport(id, kind, title,
                Headline.sentence(run, kind, exec, files, env, version, !results.isEmpty(), sampleCount),
                new RunReport.State(run.getStatus().name(), run.getStatus().finished(), run.getFailureReason(), failures,
                        failedByMetric(results), sampleCount),
                new RunReport.Times(run.getCreatedAt(), run.getStartedAt(), run.getFinishedAt(), Format.wall(wall)),
                new RunReport.Figures(exec, files, space, floor, split, plots.available(id, results)),
                Concurrency.of(id, plan, results, kind, env == null ? null : env.host().cpuCount()),
                new RunReport.Prose(concat(run.getStatus() == RunStatus.SUCCEEDED || !run.getStatus().finished()
                        ? Method.describe(plan, spaceFacts, kind, warmups, failures)
                        : Outcome.describe(run, plan, kind, results, warmups, failures), comparisons.method()),
                        concat(Caveats.list(run, plan, env, kind, exec, failures), comparisons.caveats()),
                        Questions.list(exec, run.getStatus() == RunStatus.SUCCEEDED || !run.getStatus().finished())),
                new RunReport.Setup(withTestbed(testbed, environment(env, spec, kind, comparisons.channels().shownSkips())), buildFacts(build), reproduce(spec, plan, build),
                        upstreamRepository, spec, plan, env, build),
                new RunReport.Downloads(exporters.files(id, results).stream()
                        .map(f -> new RunReport.Download(f.exporter().id(), f.file().name(), f.file().url(id),
                                f.exporter().title(), f.exporter().description())).toList()),
                comparisons);
    }

    private static List<String> concat(List<String> first, List<String> then) {
        List<String> all = new ArrayList<>(first);
        all.addAll(then);
        return all;
    }

    /** What title.txt reads: which of the plan's metrics the question can be about. */
    record TitleFacts(String kind, String article, boolean commands, boolean noopOnly, boolean exec, boolean files) {
    }

    /** The page's question, about what the plan measures (a command only when it spawns one, a file only when it moves one). */
    static String title(Plan plan, String kind) {
        boolean exec = !plan.exec().metrics().isEmpty();
        boolean commands = !Caveats.spawning(plan).isEmpty();
        TitleFacts facts = new TitleFacts(kind, Headline.article(kind), commands, exec && !commands, exec,
                !plan.files().sizes().isEmpty());
        return String.join(" ", TextTemplates.paragraphs("prose/title", Map.of("t", facts)));
    }

    private static String failedByMetric(List<MetricResult> results) {
        return results.stream().filter(r -> r.getFailures() > 0).map(r -> r.getMetric() + ": " + r.getFailures())
                .collect(java.util.stream.Collectors.joining(", "));
    }

    private RunReport.Figure p50(Optional<MetricResult> result) {
        return result.map(r -> RunReport.Figure.of(r.getP50Ns(), r.getIntervals().get("p50"), "p50", r.getN()))
                .orElse(RunReport.Figure.of(null));
    }

    private static RunReport.SpaceRow spaceRow(MetricResult r, String label) {
        return new RunReport.SpaceRow(r.getMetric(), label, RunReport.Figure.of(r.getP50Ns()), RunReport.Figure.of(r.getMaxNs()),
                r.getN(), r.getFailures());
    }

    private static Double rate(Optional<MetricResult> result) {
        return result.map(r -> Throughput.mibPerSecondOrNull(r.getBytes(), r.getP50Ns())).orElse(null);
    }

    /** The result of one metric, if the run has it. */
    static Optional<MetricResult> find(List<MetricResult> results, String metric) {
        return results.stream().filter(r -> r.getMetric().equals(metric)).findFirst();
    }

    /** The testbed first: it names the machine, so comparisons across testbeds line up under it. */
    private static List<RunReport.Fact> withTestbed(String testbed, List<RunReport.Fact> facts) {
        if (testbed == null) {
            return facts;
        }
        List<RunReport.Fact> all = new ArrayList<>();
        all.add(new RunReport.Fact("Testbed", testbed));
        all.addAll(facts);
        return all;
    }

    /**
     * @param shownElsewhere metrics whose skip reason the Channels table shows: their "not measured" fact is left
     *     out here, so the page says it once
     */
    private static List<RunReport.Fact> environment(Environment env, SpaceSpec spec, String kind, java.util.Set<String> shownElsewhere) {
        List<RunReport.Fact> facts = new ArrayList<>();
        if (env == null) {
            facts.add(new RunReport.Fact("Environment", "not recorded: the Space's agent never answered"));
            facts.add(new RunReport.Fact("Space kind", kind));
            return facts;
        }
        SystemFacts host = env.host();
        facts.add(new RunReport.Fact("Host", host.hostname()));
        facts.add(new RunReport.Fact("CPU", host.cpuModel() + " × " + host.cpuCount()));
        facts.add(new RunReport.Fact("Memory", Format.memory(host.memoryBytes())));
        facts.add(new RunReport.Fact("OS", host.os() + ", kernel " + host.kernel() + " (" + host.arch() + ")"));
        facts.add(new RunReport.Fact("Host JVM", host.jvm()));
        facts.add(new RunReport.Fact("Host JVM flags", flags(host.jvmFlags())));
        if (env.hostGcInLoops() != null) {
            facts.add(new RunReport.Fact("Host JVM GC during the loops", env.hostGcInLoops().inWords() + " (the JVM that times the round trips: the run's driver; "
                    + "its collectors, ms resolution)"));
        }
        facts.add(new RunReport.Fact("Space kind", kind));
        SpaceFacts space = env.spaceFacts();
        String virtualization = Virtualization.describe(kind, space.isolation(), host.virtualization());
        if (virtualization != null) {
            facts.add(new RunReport.Fact("Virtualization", virtualization));
        }
        if (space.shapeAsked() == null) {
            facts.add(new RunReport.Fact("Shape asked", shape(spec)));
        }
        // The transport is the network's own first words: one row says both.
        space.toMap().forEach((label, value) -> {
            if (!label.equals("transport") && !(label.startsWith(Paired.NOT_MEASURED)
                    && shownElsewhere.contains(label.substring(Paired.NOT_MEASURED.length())))) {
                facts.add(new RunReport.Fact("Space " + label, value));
            }
        });
        facts.add(new RunReport.Fact("Other Spaces running", Integer.toString(env.otherSpacesRunning())));
        if (env.guest() != null) {
            SystemFacts guest = env.guest();
            facts.add(new RunReport.Fact("Inside the Space", guest.os() + ", kernel " + guest.kernel() + ", "
                    + guest.cpuCount() + " CPUs, " + Format.memory(guest.memoryBytes()) + ", hostname " + guest.hostname()));
            facts.add(new RunReport.Fact("Agent JVM", guest.jvm()));
            facts.add(new RunReport.Fact("Agent JVM flags", flags(guest.jvmFlags())));
        }
        facts.add(new RunReport.Fact("Agent version", env.agentVersion()));
        if (env.floor() != null) {
            env.floor().forEach((label, value) -> facts.add(new RunReport.Fact("Floor: " + label, value)));
        }
        facts.add(new RunReport.Fact("Worker", env.worker()));
        return facts;
    }

    // Runs stored before the flags were recorded have none to show.
    private static String flags(List<String> flags) {
        return flags == null ? "not recorded" : flags.isEmpty() ? "none" : String.join(" ", flags);
    }

    private static String shape(SpaceSpec spec) {
        if (spec.cpus() == null && spec.memoryMiB() == null) {
            return "no limits asked";
        }
        return (spec.cpus() == null ? "any CPUs" : spec.cpus() + " CPUs") + ", "
                + (spec.memoryMiB() == null ? "any memory" : spec.memoryMiB() + " MiB");
    }

    private static List<RunReport.Fact> buildFacts(Build build) {
        if (build == null) {
            return List.of(new RunReport.Fact("Build", "unknown"));
        }
        return List.of(
                new RunReport.Fact("Spacebench", build.version()),
                new RunReport.Fact("Git commit", build.gitCommit() + (build.gitDirty() ? " (with uncommitted changes)" : "")),
                new RunReport.Fact("Built", build.builtAt()));
    }

    /**
     * Shell lines that measure the same plan again: the command line for kinds Spacebench makes
     * (one command, no server, no token), REST for an attached agent, which only its owner can
     * start (the CLI takes no target).
     */
    private List<String> reproduce(SpaceSpec spec, Plan plan, Build build) {
        List<String> lines = new ArrayList<>();
        lines.add("git clone " + repositoryUrl + " spacebench && cd spacebench");
        if (build != null && !build.gitCommit().equals("unknown")) {
            lines.add("git checkout " + build.gitCommit());
        }
        if (SpaceKinds.reachesRunningAgent(spec.kind())) {
            lines.add("./mvnw -q spring-boot:run &   # the app; its first start writes data/api-token");
            lines.add("# once it serves, with your agent started (docs/kinds.md, Attach) and its token in place of (hidden):");
            lines.add("curl -X POST http://127.0.0.1:8080/api/runs -H \"Authorization: Bearer $(cat data/api-token)\" "
                    + "-H 'Content-Type: application/json' -d '" + withoutNulls(json.writeValueAsString(new RunRequest(spec, plan))) + "'");
            return lines;
        }
        lines.add("./mvnw -q -DskipTests package");
        lines.add("cat > plan.json <<'EOF'");
        lines.add(withoutNulls(json.writeValueAsString(plan)));
        lines.add("EOF");
        lines.add("java -jar target/spacebench.jar bench --kind " + spec.kind()
                + (spec.cpus() == null ? "" : " --cpus " + spec.cpus())
                + (spec.memoryMiB() == null ? "" : " --memory-mib " + spec.memoryMiB())
                + " --plan plan.json --out reproduced");
        return lines;
    }

    /** The request as a reader would type it: a field left null takes its default, so it is left out. */
    private static String withoutNulls(String json) {
        JsonNode tree = READER.readTree(json);
        dropNulls(tree);
        return READER.writeValueAsString(tree);
    }

    private static void dropNulls(JsonNode node) {
        if (node instanceof ObjectNode object) {
            object.properties().removeIf(field -> field.getValue().isNull());
            object.forEach(RunReportBuilder::dropNulls);
        } else if (node.isArray()) {
            node.forEach(RunReportBuilder::dropNulls);
        }
    }
}
