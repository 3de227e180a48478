package dev.spacebench.run;

import dev.spacebench.plan.PlanLimits;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code spacebench.plan.*}.
 *
 * @param maxFileBytes the largest file size a plan may ask for, in bytes; default 4294967296 (4 GiB)
 * @param maxConcurrency the most Spaces a sweep level may keep busy at once; default 64
 */
@ConfigurationProperties("spacebench.plan")
public record PlanSettings(@DefaultValue("4294967296") long maxFileBytes, @DefaultValue("64") int maxConcurrency) {

    /** The limits a plan is checked against here. */
    public PlanLimits limits() {
        return new PlanLimits(maxFileBytes, maxConcurrency);
    }
}
