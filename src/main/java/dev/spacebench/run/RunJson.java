package dev.spacebench.run;

import dev.spacebench.stats.PercentileInterval;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * What the exporters still ask for by this name: a result's intervals, which
 * {@link MetricResult#getIntervals()} now gives typed (the JSON columns are read by
 * {@link JsonColumns}). Goes when the exporters become plug-ins.
 */
@Component
public class RunJson {

    /** The 95% intervals of a result's p50, p95 and p99; empty when it has no figures. */
    public Map<String, PercentileInterval> intervals(MetricResult result) {
        return result.getIntervals();
    }
}
