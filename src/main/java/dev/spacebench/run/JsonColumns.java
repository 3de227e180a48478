package dev.spacebench.run;

import dev.spacebench.environment.Build;
import dev.spacebench.environment.Environment;
import dev.spacebench.plan.Plan;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.stats.PercentileInterval;
import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JPA converters of the JSON text columns of {@link Run} and {@link MetricResult}: each value
 * is stored as the app's {@link JsonMapper} writes it (the format runs stored before these
 * converters existed), and read back into its type. Hibernate makes them through Spring, which
 * hands them that mapper.
 */
public final class JsonColumns {

    private JsonColumns() {}

    /** One type to and from JSON text; null stays null. */
    abstract static class Column<T> implements AttributeConverter<T, String> {

        private final JsonMapper json;
        private final JavaType type;
        private final String name;

        Column(JsonMapper json, JavaType type, String name) {
            this.json = json;
            this.type = type;
            this.name = name;
        }

        @Override
        public String convertToDatabaseColumn(T value) {
            return value == null ? null : json.writeValueAsString(value);
        }

        /** @throws IllegalStateException if the stored text does not read as this type */
        @Override
        public T convertToEntityAttribute(String text) {
            if (text == null) {
                return null;
            }
            try {
                return json.readValue(text, type);
            } catch (JacksonException e) {
                throw new IllegalStateException("stored " + name + " is not readable: " + e.getOriginalMessage(), e);
            }
        }
    }

    @Converter
    public static final class PlanColumn extends Column<Plan> {
        public PlanColumn(JsonMapper json) {
            super(json, json.constructType(Plan.class), "Plan");
        }
    }

    @Converter
    public static final class SpaceSpecColumn extends Column<SpaceSpec> {
        public SpaceSpecColumn(JsonMapper json) {
            super(json, json.constructType(SpaceSpec.class), "SpaceSpec");
        }
    }

    /** A comparison run's entries (issue 29), in request order. */
    @Converter
    public static final class CompareEntriesColumn extends Column<java.util.List<CompareEntry>> {
        public CompareEntriesColumn(JsonMapper json) {
            super(json, json.getTypeFactory().constructCollectionType(java.util.List.class, CompareEntry.class), "compare entries");
        }
    }

    @Converter
    public static final class EnvironmentColumn extends Column<Environment> {
        public EnvironmentColumn(JsonMapper json) {
            super(json, json.constructType(Environment.class), "Environment");
        }
    }

    @Converter
    public static final class BuildColumn extends Column<Build> {
        public BuildColumn(JsonMapper json) {
            super(json, json.constructType(Build.class), "Build");
        }
    }

    /** A result's 95% intervals by percentile name ("p50", "p95", "p99"), in the order stored. */
    @Converter
    public static final class IntervalsColumn extends Column<Map<String, PercentileInterval>> {
        public IntervalsColumn(JsonMapper json) {
            super(json, json.getTypeFactory().constructMapType(LinkedHashMap.class, String.class, PercentileInterval.class),
                    "intervals");
        }
    }
}
