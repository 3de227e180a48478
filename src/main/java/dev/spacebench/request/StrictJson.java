package dev.spacebench.request;

import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.stereotype.Component;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

/**
 * How request bodies are read, by the REST API (Spring's mapper) and by {@code bench --plan FILE}
 * alike: a value of the wrong JSON type is an error naming its field, never converted. Jackson's
 * defaults read {@code true} or {@code 7} as the string "true" or "7" (so {@code "metrics": [true]}
 * asked for the metric "true"), {@code "5"} or {@code ""} as a number, any number as a boolean, and a
 * one-element list as its element; a misspelt field is ignored and a fraction cut to a whole number.
 */
@Component
public class StrictJson implements JsonMapperBuilderCustomizer {

    @Override
    public void customize(JsonMapper.Builder builder) {
        strict(builder);
    }

    /** Makes {@code builder} read as the REST API does; returns it. */
    public static JsonMapper.Builder strict(JsonMapper.Builder builder) {
        return builder
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(DeserializationFeature.UNWRAP_SINGLE_VALUE_ARRAYS)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .withCoercionConfig(LogicalType.Textual, config -> config
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Array, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Object, CoercionAction.Fail));
    }
}
