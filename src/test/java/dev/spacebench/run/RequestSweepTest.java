package dev.spacebench.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Generated bad input: walks a valid request body as a JSON tree and, for every field and list
 * element, sends the body with that one value replaced by null, a value of each wrong JSON type,
 * a huge number, a negative one, a fraction, an empty string, a 10,000-character string, an empty
 * or longer list, or an object with an unknown field. None may answer 5xx; every 400 is
 * problem+json whose errors name that value's JSON path (or a field inside it); and what is
 * neither null nor empty (which mean "the default") nor a fraction where fractions are allowed
 * must be refused. The same for the baseline import's body and the compare and check parameters.
 */
class RequestSweepTest extends AppTestSupport {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String LONG_TEXT = "x".repeat(10_000);

    /** A small valid run: every field of the request model given once. */
    private static final String RUN = """
            {"space": {"kind": "process"},
             "plan": {"exec": {"metrics": ["noop", "true"], "n": 3, "warmups": 1, "agentWarmupCalls": 0},
                      "files": {"sizes": [{"bytes": 1024, "n": 2}], "warmups": 0, "bulkThresholdBytes": 2097152, "chunkBytes": 65536},
                      "floor": {"enabled": false, "n": 3, "warmups": 0},
                      "spaces": 1,
                      "concurrency": {"levels": [1, 2], "metrics": ["noop"], "n": 2, "fileBytes": 1024, "fileN": 1}}}
            """;

    /** A result.json as the export writes it, cut to what an import reads and shows. */
    private static final String RESULT = """
            {"schema": "spacebench.result/v1",
             "run": {"id": 7, "kind": "process", "startedAt": "2026-01-02T03:04:05Z"},
             "environment": {"host": {"hostname": "box", "cpuModel": "Some CPU", "cpuCount": 4, "os": "Linux", "kernel": "6.1",
                                      "virtualization": "none"},
                             "space": {"isolation": "process"}, "otherSpacesRunning": 0},
             "build": {"version": "1.0", "gitCommit": "abc123"},
             "metrics": [{"metric": "exec.noop", "n": 300, "p50Ns": 1000, "p95Ns": 2000, "p99Ns": 3000, "slowestNs": 4000},
                         {"metric": "upload.1MiB", "n": 20, "p50Ns": 5000000, "p95Ns": 6000000, "p99Ns": 7000000,
                          "slowestNs": 8000000, "mibPerSecond": 200.5}]}
            """;

    /** One changed body: where, what kind of change, and the body. */
    record Variant(String path, String kind, JsonNode body) {
    }

    @Test
    void everyValueOfARunRequestReplacedBadlyIsRefusedNamingItsPathAndNothingReaches500() throws Exception {
        JsonNode base = JSON.readTree(RUN);
        HttpResponse<String> valid = post("/api/runs", base.toString());
        assertThat(valid.statusCode()).as(valid.body()).isEqualTo(201);
        cancel(valid);

        List<String> failures = new ArrayList<>();
        int sent = 0;
        for (Variant variant : variants(base, "")) {
            HttpResponse<String> response = post("/api/runs", variant.body().toString());
            sent++;
            if (response.statusCode() == 201) {
                cancel(response);
            }
            check(variant, response, mayBeAccepted(variant, Set.of()), failures);
        }
        assertThat(failures).as("of %d variants", sent).isEmpty();
        assertThat(sent).isGreaterThan(200);
    }

    @Test
    void everyValueOfABaselineImportReplacedBadlyIsRefusedNamingItsPathAndNothingReaches500() throws Exception {
        JsonNode base = JSON.readTree(RESULT);
        HttpResponse<String> valid = post("/api/baselines/import?name=sweep-valid", base.toString());
        assertThat(valid.statusCode()).as(valid.body()).isEqualTo(201);

        List<String> failures = new ArrayList<>();
        int sent = 0;
        for (Variant variant : variants(base, "body")) {
            // Not "sweep-N": the app context is shared, and ConcurrencySweepEndToEndTest names a baseline after its run id.
            String name = "request-sweep-" + sent++;
            HttpResponse<String> response = post("/api/baselines/import?name=" + name, variant.body().toString());
            // Only schema and metrics are computed with; the rest is shown (cut when long) and a later v1 may add fields.
            boolean read = variant.path().equals("body.schema") || variant.path().startsWith("body.metrics");
            boolean accepted = !read || mayBeAccepted(variant, Set.of("body.metrics[1].mibPerSecond")) || variant.kind().equals("unknown field");
            check(variant, response, accepted, failures);
            if (response.statusCode() == 201) {
                assertThat(delete("/api/baselines/" + name).statusCode()).isEqualTo(204);
            }
        }
        assertThat(failures).as("of %d variants", sent).isEmpty();
    }

    @Test
    void everyCompareAndCheckParameterReplacedBadlyIsRefusedNamingItAndNothingReaches500() throws Exception {
        post("/api/baselines/import?name=sweep-compare", RESULT);
        Map<String, String> pair = new LinkedHashMap<>();
        pair.put("runs", "1,2");
        Map<String, String> withBaseline = new LinkedHashMap<>();
        withBaseline.put("run", "1");
        withBaseline.put("baseline", "sweep-compare");
        Map<String, String> check = new LinkedHashMap<>();
        check.put("baseline", "sweep-compare");
        check.put("threshold", "1.10");
        check.put("statistic", "p95");

        List<String> failures = new ArrayList<>();
        for (String text : new String[] {"", "x", "-5", "1.5", "100000000000000000000", "NaN", ",", "1,2,3", LONG_TEXT.substring(0, 3000)}) {
            for (Map<String, String> params : List.of(pair, withBaseline)) {
                for (String name : params.keySet()) {
                    Map<String, String> changed = new LinkedHashMap<>(params);
                    changed.put(name, text);
                    HttpResponse<String> response = get("/api/compare?" + query(changed));
                    checkParameter("compare " + changed.keySet() + " " + name + "=" + cut(text), response, name, text, failures);
                }
            }
            for (String name : check.keySet()) {
                Map<String, String> changed = new LinkedHashMap<>(check);
                changed.put(name, text);
                HttpResponse<String> response = get("/api/runs/1/check?" + query(changed));
                checkParameter("check " + name + "=" + cut(text), response, name, text, failures);
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void anImportOfAnotherSchemaOrANegativeTimeIsRefusedNamingTheFieldAndWhatIsAllowed() throws Exception {
        HttpResponse<String> v9 = post("/api/baselines/import?name=schema-v9", RESULT.replace("spacebench.result/v1", "spacebench.result/v9"));
        assertError(v9, 400, "body.schema", "must be one of [spacebench.result/v1] (the result.json schemas this version reads), "
                + "was 'spacebench.result/v9'");
        HttpResponse<String> negative = post("/api/baselines/import?name=negative-p50", RESULT.replace("\"p50Ns\": 1000,", "\"p50Ns\": -5,"));
        assertError(negative, 400, "body.metrics[0].p50Ns", "must be from 1 to 9223372036854775807 (nanoseconds), was -5");
        assertThat(get("/api/baselines/negative-p50").statusCode()).as("not stored").isEqualTo(404);
        assertError(post("/api/baselines/import?name=p95-below-p50", RESULT.replace("\"p95Ns\": 2000,", "\"p95Ns\": 900,")),
                400, "body.metrics[0].p95Ns", "must be at least p50Ns (1000), was 900");
    }

    @Test
    void aCompareGivenBothShapesIsRefusedNamingWhatIsTooMuch() throws Exception {
        post("/api/baselines/import?name=both-shapes", RESULT);
        HttpResponse<String> both = get("/api/compare?runs=1,2&run=1&baseline=both-shapes");
        assertError(both, 400, "run", "must not be given with runs: compare two runs (runs=A,B) or a run with a baseline "
                + "(run=ID&baseline=NAME)");
        assertError(both, 400, "baseline", "must not be given with runs");
        assertError(get("/api/compare?run=1"), 400, "baseline", "is required with run=ID");
        assertError(get("/api/compare?runs=987654,987655"), 404, "runs", "no run with id 987654");
        assertError(get("/api/compare?run=987654&baseline=both-shapes"), 404, "run", "no run with id 987654");
    }

    private static void assertError(HttpResponse<String> response, int status, String field, String message) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        List<String> fields = json(response).get("errors").findValuesAsString("field");
        assertThat(fields).as(response.body()).contains(field);
        assertThat(json(response).get("errors").get(fields.indexOf(field)).get("message").asString()).contains(message);
    }

    /** Null and empty values mean "the default"; a real number takes a fraction or a huge value. Anything else must be refused. */
    private static boolean mayBeAccepted(Variant variant, Set<String> realNumbers) {
        return switch (variant.kind()) {
            case "null", "empty string", "empty list", "empty object" -> true;
            case "fraction", "huge number" -> realNumbers.contains(variant.path());
            default -> false;
        };
    }

    private static void check(Variant variant, HttpResponse<String> response, boolean mayBeAccepted, List<String> failures) {
        String what = variant.path() + " as " + variant.kind() + " -> " + response.statusCode() + " " + cut(response.body());
        int status = response.statusCode();
        if (status >= 500) {
            failures.add(what);
            return;
        }
        if (status < 300) {
            if (!mayBeAccepted) {
                failures.add("accepted: " + what);
            }
            return;
        }
        String problem = problemError(response, variant.path(), failures, what);
        if (problem != null) {
            failures.add(problem);
        }
    }

    private static void checkParameter(String what, HttpResponse<String> response, String name, String text, List<String> failures) {
        String line = what + " -> " + response.statusCode() + " " + cut(response.body());
        if (response.statusCode() >= 500) {
            failures.add(line);
        } else if (response.statusCode() >= 400) {
            List<String> fields = problemFields(response);
            if (fields == null) {
                failures.add("not problem+json: " + line);
            } else if (wrongOnItsOwn(name, text) && !fields.contains(name) && !fields.contains("path")) {
                // A parameter too long for the request line is named as the path, before the app sees it.
                failures.add("not naming " + name + ": " + line);
            }
        } else if (wrongOnItsOwn(name, text)) {
            failures.add("accepted: " + line);
        }
    }

    /** Whether a value is wrong for its parameter whatever the others say (empty means "not given"). */
    private static boolean wrongOnItsOwn(String name, String text) {
        if (text.isEmpty()) {
            return false;
        }
        return switch (name) {
            case "threshold" -> !text.matches("\\d+(\\.\\d+)?");
            default -> true;
        };
    }

    /** @return a failure when the answer is not problem+json naming {@code path} or a field inside it, else null */
    private static String problemError(HttpResponse<String> response, String path, List<String> failures, String what) {
        List<String> fields = problemFields(response);
        if (fields == null) {
            return "not problem+json: " + what;
        }
        boolean named = fields.stream().anyMatch(f -> f.equals(path) || f.startsWith(path + ".") || f.startsWith(path + "["));
        return named ? null : "not naming " + path + ": " + what;
    }

    private static List<String> problemFields(HttpResponse<String> response) {
        if (!response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json")) {
            return null;
        }
        JsonNode errors = json(response).get("errors");
        return errors == null ? null : errors.findValuesAsString("field");
    }

    /** Every variant of every value in {@code base}, paths as the API names them ("body" is the import's root). */
    static List<Variant> variants(JsonNode base, String prefix) {
        List<Variant> out = new ArrayList<>();
        walk(base, base, prefix, new ArrayList<>(), out);
        return out;
    }

    private static void walk(JsonNode root, JsonNode node, String path, List<Object> steps, List<Variant> out) {
        if (!steps.isEmpty()) {
            for (Map.Entry<String, JsonNode> replacement : replacements(node).entrySet()) {
                out.add(new Variant(path, replacement.getKey(), replaced(root, steps, replacement.getValue())));
            }
        }
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                List<Object> next = new ArrayList<>(steps);
                next.add(field.getKey());
                walk(root, field.getValue(), path.isEmpty() ? field.getKey() : path + "." + field.getKey(), next, out);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                List<Object> next = new ArrayList<>(steps);
                next.add(i);
                walk(root, node.get(i), path + "[" + i + "]", next, out);
            }
        }
    }

    /** What replaces one value, by kind of change. */
    private static Map<String, JsonNode> replacements(JsonNode node) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        out.put("null", NODES.nullNode());
        out.put("huge number", NODES.numberNode(new java.math.BigInteger("100000000000000000000000000000")));
        out.put("negative", NODES.numberNode(-5));
        out.put("fraction", NODES.numberNode(1.5));
        out.put("empty string", NODES.stringNode(""));
        out.put("10,000-character string", NODES.stringNode(LONG_TEXT));
        if (!node.isBoolean()) {
            out.put("boolean", NODES.booleanNode(true));
        } else {
            out.put("string", NODES.stringNode("true"));
            out.put("number", NODES.numberNode(1));
        }
        if (!node.isArray()) {
            out.put("list", NODES.arrayNode().add(1));
        }
        if (!node.isObject()) {
            out.put("object", NODES.objectNode().put("a", 1));
        }
        if (node.isObject()) {
            out.put("empty object", NODES.objectNode());
            out.put("unknown field", ((ObjectNode) node.deepCopy()).put("zzUnknown", 1));
        }
        if (node.isArray()) {
            out.put("empty list", NODES.arrayNode());
            out.put("list with a null", ((ArrayNode) node.deepCopy()).addNull());
            out.put("string", NODES.stringNode("x"));
        }
        if (node.isNumber()) {
            out.put("string", NODES.stringNode("x"));
        }
        if (node.isString()) {
            out.put("number", NODES.numberNode(7));
        }
        return out;
    }

    private static JsonNode replaced(JsonNode root, List<Object> steps, JsonNode value) {
        JsonNode copy = root.deepCopy();
        JsonNode parent = copy;
        for (Object step : steps.subList(0, steps.size() - 1)) {
            parent = step instanceof String name ? parent.get(name) : parent.get((Integer) step);
        }
        Object last = steps.get(steps.size() - 1);
        if (last instanceof String name) {
            ((ObjectNode) parent).set(name, value);
        } else {
            ((ArrayNode) parent).set((Integer) last, value);
        }
        return copy;
    }

    private void cancel(HttpResponse<String> created) throws Exception {
        post("/api/runs/" + json(created).get("id").asLong() + "/cancel", "");
    }

    private static String query(Map<String, String> params) {
        return String.join("&", params.entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).toList());
    }

    private static String cut(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "…";
    }

}
