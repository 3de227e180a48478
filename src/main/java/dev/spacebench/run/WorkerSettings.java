package dev.spacebench.run;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code spacebench.worker.*} ({@code poll-interval-ms}, default 500, is read by the worker's schedule).
 *
 * @param maxConcurrentRuns runs this machine measures at once, at least 1 (the default)
 * @param id the name written into the runs this machine claims; blank (the default): the host name
 * @param enabled false: this process claims no queued runs (what {@code bench} sets for itself); default true
 */
@ConfigurationProperties("spacebench.worker")
public record WorkerSettings(@DefaultValue("1") int maxConcurrentRuns, @DefaultValue("") String id,
                             @DefaultValue("true") boolean enabled) {
}
