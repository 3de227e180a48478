package dev.spacebench.fleet;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code spacebench.worker.*} ({@code poll-interval-ms}, default 500, is read by the worker's schedule).
 *
 * @param maxConcurrentRuns runs this machine measures at once, at least 1 (the default)
 * @param id the name written into the runs this machine claims; blank (the default): the testbed
 * @param enabled false: this process claims no queued runs (what {@code bench} sets for itself); default true
 * @param testbed the machine's name as runs and pages show it; blank (the default): the host name
 * @param lease how long a claimed run stays this worker's without a heartbeat; default 30 s
 * @param heartbeat how often the worker renews its leases; default 5 s, at most a third of the lease
 */
@ConfigurationProperties("spacebench.worker")
public record WorkerSettings(@DefaultValue("1") int maxConcurrentRuns, @DefaultValue("") String id,
                             @DefaultValue("true") boolean enabled, @DefaultValue("") String testbed,
                             @DefaultValue("30s") Duration lease, @DefaultValue("5s") Duration heartbeat) {
}
