package dev.spacebench.run;

import dev.spacebench.environment.Build;
import dev.spacebench.environment.Environment;
import dev.spacebench.plan.Plan;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.stats.PercentileInterval;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.stereotype.Component;
import tools.jackson.core.type.TypeReference;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/** The JSON text stored in a run's columns, read back into its types. */
@Component
public class RunJson {

    private final JsonMapper json;

    public RunJson(JsonMapper json) {
        this.json = json;
    }

    public String write(Object value) {
        return json.writeValueAsString(value);
    }

    public Plan plan(Run run) {
        return read(run.getPlan(), Plan.class);
    }

    public SpaceSpec spaceSpec(Run run) {
        return read(run.getSpaceSpec(), SpaceSpec.class);
    }

    /** Null until the run's Space answered. */
    public Environment environment(Run run) {
        return run.getEnvironment() == null ? null : read(run.getEnvironment(), Environment.class);
    }

    public Build build(Run run) {
        return run.getBuild() == null ? null : read(run.getBuild(), Build.class);
    }

    /** The 95% intervals of a result's p50, p95 and p99; empty when it has no figures. */
    public Map<String, PercentileInterval> intervals(MetricResult result) {
        if (result.getIntervals() == null) {
            return Map.of();
        }
        try {
            return json.readValue(result.getIntervals(), new TypeReference<LinkedHashMap<String, PercentileInterval>>() {});
        } catch (JacksonException e) {
            throw new IllegalStateException("stored intervals are not readable: " + e.getOriginalMessage(), e);
        }
    }

    private <T> T read(String text, Class<T> type) {
        try {
            return json.readValue(text, type);
        } catch (JacksonException e) {
            throw new IllegalStateException("stored " + type.getSimpleName() + " is not readable: " + e.getOriginalMessage(), e);
        }
    }
}
