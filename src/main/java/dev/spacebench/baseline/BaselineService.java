package dev.spacebench.baseline;

import dev.spacebench.environment.Virtualization;
import dev.spacebench.metric.Metric;
import dev.spacebench.request.FieldError;
import dev.spacebench.request.InvalidRequestException;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.Run;
import dev.spacebench.run.RunService;
import dev.spacebench.run.RunStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import dev.spacebench.request.RequestBodyErrors;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Names runs as baselines, imports figures from result.json, and reads baselines back. */
@Service
public class BaselineService {

    /** Lower-case letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64. */
    public static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    /** As long as the baseline table's label column. */
    public static final int MAX_LABEL = 500;
    /** Metrics one imported result.json may carry (a published run has fewer than 20). */
    public static final int MAX_IMPORTED_METRICS = 200;
    /** As long as a metric id may be where results are stored. */
    public static final int MAX_METRIC_ID = 64;
    /** Space facts kept from an imported result.json, and the length each fact's text is cut to. */
    public static final int MAX_IMPORTED_FACTS = 50;
    public static final int MAX_FACT = 500;

    private final BaselineRepository baselines;
    private final RunService runs;
    private final JsonMapper json;

    public BaselineService(BaselineRepository baselines, RunService runs, JsonMapper json) {
        this.baselines = baselines;
        this.runs = runs;
        this.json = json;
    }

    public List<Baseline> list() {
        return baselines.findAllByOrderByCreatedAtDesc();
    }

    /** @throws BaselineNotFoundException naming {@code field} */
    public Baseline get(String name, String field) {
        return baselines.findByName(name).orElseThrow(() -> new BaselineNotFoundException(field, name));
    }

    /**
     * Names a finished run as a baseline; its raw samples stay in the run.
     *
     * @throws InvalidRequestException for a bad or taken name, or a run that did not succeed
     * @throws dev.spacebench.run.RunNotFoundException if there is no such run
     */
    @Transactional
    public Baseline fromRun(String name, long runId, String label) {
        checkName(name);
        checkLabel(label);
        Run run = runs.get(runId);
        if (run.getStatus() != RunStatus.SUCCEEDED) {
            throw new InvalidRequestException(List.of(new FieldError("runId",
                    "run " + runId + " is " + run.getStatus() + "; only a SUCCEEDED run can be a baseline")));
        }
        List<BaselineFigures> figures = new ArrayList<>();
        for (MetricResult r : runs.results(runId)) {
            if (r.getP50Ns() != null && !Metric.isFloor(r.getMetric())) {
                figures.add(BaselineFigures.of(r));
            }
        }
        String text = label == null || label.isBlank() ? "run " + runId + " (" + run.getKind() + " Space)" : label;
        return baselines.save(new Baseline(name, text, BaselineSource.RUN, runId, "raw samples in run " + runId,
                json.writeValueAsString(figures), null, Instant.now()));
    }

    /**
     * Imports the figures of a Spacebench result.json (schema spacebench.result/v1) as a
     * summary-only baseline: the raw samples stay wherever the file came from.
     *
     * @throws InvalidRequestException for a bad or taken name, or a document that is not a result.json
     */
    @Transactional
    public Baseline importResult(String name, String label, JsonNode document) {
        checkName(name);
        checkLabel(label);
        ImportedResult result;
        try {
            // The import reads only some of a result.json's fields: the rest, and fields a later v1 adds, are no error.
            // Read from text, not the tree: only a text parser knows where a number too large for its field was.
            result = json.readerFor(ImportedResult.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .readValue(json.writeValueAsString(document == null ? json.nullNode() : document));
        } catch (JacksonException e) {
            throw new InvalidRequestException(List.of(RequestBodyErrors.describe(e, "body")));
        }
        if (result == null) {
            throw new InvalidRequestException(List.of(new FieldError("body", "is required: a Spacebench result.json (schema "
                    + dev.spacebench.publish.export.ResultDocument.SCHEMA + ")")));
        }
        List<FieldError> problems = result.problems();
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        List<BaselineFigures> figures = result.figures();
        if (figures.isEmpty()) {
            throw new InvalidRequestException(List.of(new FieldError("body.metrics", "has no metric with a p50Ns to import")));
        }
        JsonNode run = document.path("run");
        String text = label == null || label.isBlank()
                ? "imported result.json of run " + cut(run.path("id").asString("?"), 64) + " (" + cut(run.path("kind").asString("?"), 64) + ")"
                : label;
        return baselines.save(new Baseline(name, text, BaselineSource.IMPORTED, null, "imported summary figures, no raw samples",
                json.writeValueAsString(figures), json.writeValueAsString(environmentFacts(document)), Instant.now()));
    }

    /**
     * Deletes a baseline named or imported here.
     *
     * @throws BaselineNotFoundException if there is none of that name
     * @throws BuiltInBaselineException for a built-in one (published figures shipped with the app,
     *     e.g. {@code cua-0.15.0}): nothing would bring it back, and {@code bench --baseline} names it
     */
    @Transactional
    public void delete(String name) {
        Baseline baseline = get(name, "name");
        if (baseline.getSource() == BaselineSource.PUBLISHED) {
            throw new BuiltInBaselineException(name);
        }
        baselines.delete(baseline);
    }

    public List<BaselineFigures> figures(Baseline baseline) {
        try {
            return json.readValue(baseline.getFigures(), new TypeReference<List<BaselineFigures>>() {});
        } catch (JacksonException e) {
            throw new IllegalStateException("baseline " + baseline.getName() + " has unreadable figures", e);
        }
    }

    /** Labelled facts about what the baseline ran on; empty when unknown (runs: see the run). */
    public Map<String, String> environment(Baseline baseline) {
        if (baseline.getEnvironment() == null) {
            return Map.of();
        }
        try {
            return json.readValue(baseline.getEnvironment(), new TypeReference<LinkedHashMap<String, String>>() {});
        } catch (JacksonException e) {
            throw new IllegalStateException("baseline " + baseline.getName() + " has an unreadable environment", e);
        }
    }

    private static Map<String, String> environmentFacts(JsonNode document) {
        Map<String, String> facts = new LinkedHashMap<>();
        JsonNode env = document.path("environment");
        JsonNode host = env.path("host");
        put(facts, "Host", host.path("hostname"));
        if (host.has("cpuModel")) {
            facts.put("CPU", cut(text(host.path("cpuModel")) + " × " + text(host.path("cpuCount"))));
        }
        put(facts, "OS", host.path("os"));
        put(facts, "Kernel", host.path("kernel"));
        put(facts, "Space kind", document.path("run").path("kind"));
        String virtualization = Virtualization.describe(document.path("run").path("kind").asString(null),
                env.path("space").path("isolation").asString(null), host.path("virtualization").asString(null));
        if (virtualization != null) {
            facts.put("Virtualization", cut(virtualization));
        }
        env.path("space").properties().stream().limit(MAX_IMPORTED_FACTS)
                .forEach(e -> facts.put(cut("Space " + e.getKey()), cut(text(e.getValue()))));
        put(facts, "Other Spaces running", env.path("otherSpacesRunning"));
        put(facts, "Spacebench", document.path("build").path("version"));
        put(facts, "Git commit", document.path("build").path("gitCommit"));
        put(facts, "Measured", document.path("run").path("startedAt"));
        return facts;
    }

    private static void put(Map<String, String> facts, String label, JsonNode value) {
        if (!value.isMissingNode() && !value.isNull()) {
            facts.put(label, cut(text(value)));
        }
    }

    // A fact is shown as given: a list or an object (where the export writes text) as its JSON.
    private static String text(JsonNode value) {
        return value.isValueNode() ? value.asString() : value.toString();
    }

    // An imported fact is shown, never computed with: a long one is cut rather than refused.
    private static String cut(String text) {
        return cut(text, MAX_FACT);
    }

    private static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "…";
    }

    private static void checkLabel(String label) {
        if (label != null && label.length() > MAX_LABEL) {
            throw new InvalidRequestException(List.of(new FieldError("label", "must be at most " + MAX_LABEL
                    + " characters, was " + label.length())));
        }
    }

    private static Long longOrNull(JsonNode node, String field) {
        return node.path(field).isNumber() ? node.path(field).asLong() : null;
    }

    private void checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new InvalidRequestException(List.of(new FieldError("name",
                    "must be 1 to 64 of a-z, 0-9, '.', '_', '-', starting with a letter or digit, was "
                            + dev.spacebench.plan.Shown.quote(name))));
        }
        if (baselines.existsByName(name)) {
            throw new InvalidRequestException(List.of(new FieldError("name", "a baseline named '" + name + "' exists already")));
        }
    }
}
