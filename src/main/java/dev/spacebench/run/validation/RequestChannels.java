package dev.spacebench.run.validation;

import dev.spacebench.request.FieldError;
import dev.spacebench.space.SpaceChannels;
import dev.spacebench.space.SpaceSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A request's {@code channels}: a non-empty list of known channels, each once. Whether the kind
 * can serve them is the kind's to say ({@code Spaces#check}, also under {@code channels}).
 */
final class RequestChannels {

    private RequestChannels() {}

    /**
     * @param space the request's {@code space} as given (it must not carry channels itself)
     * @param channels the request's top-level {@code channels}; null for the default {@code ["agent"]}
     * @return what is wrong, naming the field and what is allowed; empty when fine
     */
    static List<FieldError> check(SpaceSpec space, List<String> channels) {
        List<FieldError> errors = new ArrayList<>();
        if (space.channels() != null) {
            errors.add(new FieldError("space.channels", "is not a field of space: give \"channels\" at the top level of the request, "
                    + "a list from " + SpaceChannels.KNOWN));
        }
        if (channels == null) {
            return errors;
        }
        if (channels.isEmpty()) {
            errors.add(new FieldError("channels", "must name at least one channel from " + SpaceChannels.KNOWN
                    + " (leave it out for [" + SpaceChannels.AGENT + "])"));
            return errors;
        }
        Set<String> seen = new HashSet<>();
        for (String channel : channels) {
            if (channel == null || !SpaceChannels.KNOWN.contains(channel)) {
                errors.add(new FieldError("channels", "each must be one of " + SpaceChannels.KNOWN + ", was "
                        + (channel == null ? "null" : "'" + abbreviated(channel) + "'")));
            } else if (!seen.add(channel)) {
                errors.add(new FieldError("channels", "each channel at most once, '" + channel + "' was given twice"));
            }
        }
        return errors;
    }

    private static String abbreviated(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }
}
