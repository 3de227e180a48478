package dev.spacebench.run;

import java.util.List;
import java.util.Map;

/**
 * A run's downloads as its JSON lists them. Owned here and implemented by the exporters
 * ({@code publish.export.RunExporters}), so that run's REST API does not import publish.
 */
public interface RunLinks {

    /** @return file name → URL of every file of the run, in order */
    Map<String, String> links(long runId, List<MetricResult> results);
}
