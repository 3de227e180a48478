package dev.spacebench.cli;

import dev.spacebench.plan.Plan;
import dev.spacebench.plan.PlanLimits;
import dev.spacebench.plan.PlanPreset;
import dev.spacebench.request.FieldError;
import dev.spacebench.request.RequestBodyErrors;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads {@code --plan}: a preset name ({@code quick}, {@code published}) or a JSON file holding
 * the {@code plan} part of a {@code POST /api/runs} body, e.g.
 * {@code {"exec": {"n": 20}, "files": {"sizes": [{"bytes": 1048576, "n": 2}]}}}. What the file
 * leaves out takes the published default; ranges are checked where the run is queued.
 */
final class PlanArgument {

    // A misspelt field or a value of the wrong type is an error here as in the REST API, not a silently ignored default.
    private static final JsonMapper STRICT = dev.spacebench.request.StrictJson.strict(JsonMapper.builder()).build();
    // Ranges are the server's to check; a message about an unreadable number names the default limits.
    private static final PlanLimits DEFAULT_LIMITS = new PlanLimits(4L << 30);

    private PlanArgument() {}

    /**
     * @param value the option's value; null means the published method
     * @throws BenchException naming the option, the file and what is wrong with it
     */
    static Plan read(String value) {
        if (value == null) {
            return PlanPreset.PUBLISHED.plan();
        }
        Optional<PlanPreset> preset = PlanPreset.byId(value);
        if (preset.isPresent()) {
            return preset.get().plan();
        }
        Path file = Path.of(value);
        if (!Files.isRegularFile(file)) {
            throw new BenchException("--plan '" + value + "' is neither a preset " + Arrays.stream(PlanPreset.values())
                    .map(PlanPreset::id).toList() + " nor a readable JSON file");
        }
        try {
            Plan plan = STRICT.readValue(Files.readString(file), Plan.class);
            if (plan == null) {
                throw new BenchException("--plan " + file + ": the file holds no plan (JSON null)");
            }
            return plan;
        } catch (JacksonException e) {
            // The same words the REST API answers for the same mistake in a request body.
            FieldError error = RequestBodyErrors.describe(e, "plan", DEFAULT_LIMITS);
            throw new BenchException("--plan " + file + " is not a plan:\n" + RequestErrors.lines(java.util.List.of(error)));
        } catch (IOException e) {
            throw new BenchException("--plan " + file + " cannot be read: " + e.getMessage(), e);
        }
    }
}
