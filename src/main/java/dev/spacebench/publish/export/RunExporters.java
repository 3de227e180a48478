package dev.spacebench.publish.export;

import dev.spacebench.run.MetricResult;
import dev.spacebench.run.RunLinks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/** Every {@link RunExporter} bean, in order: what lists and serves a run's downloads. */
@Component
public class RunExporters implements RunLinks {

    private final ObjectProvider<RunExporter> beans;
    private volatile List<RunExporter> exporters;

    /**
     * Looked up on first use, not here: the page's exporters build the run report, and the
     * report lists the downloads.
     */
    public RunExporters(ObjectProvider<RunExporter> beans) {
        this.beans = beans;
    }

    /** In {@code @Order} order. */
    public List<RunExporter> all() {
        List<RunExporter> all = exporters;
        if (all == null) {
            all = beans.orderedStream().toList();
            exporters = all;
        }
        return all;
    }

    /** A file of this run and the exporter that writes it, found by where it is served. */
    public record Found(RunExporter exporter, ExportFile file) {
    }

    /** @param path below {@code /api/runs/{id}/}, e.g. {@code samples.csv} or {@code hlog/exec.noop.hlog} */
    public Optional<Found> find(long runId, List<MetricResult> results, String path) {
        for (RunExporter exporter : all()) {
            for (ExportFile file : exporter.files(runId, results)) {
                if (file.path().equals(path)) {
                    return Optional.of(new Found(exporter, file));
                }
            }
        }
        return Optional.empty();
    }

    /** Every file of the run, in order. */
    public List<Found> files(long runId, List<MetricResult> results) {
        List<Found> files = new ArrayList<>();
        for (RunExporter exporter : all()) {
            exporter.files(runId, results).forEach(file -> files.add(new Found(exporter, file)));
        }
        return files;
    }

    /** File name → URL of every file of the run, in order: the run's links in its JSON. */
    @Override
    public Map<String, String> links(long runId, List<MetricResult> results) {
        Map<String, String> links = new LinkedHashMap<>();
        files(runId, results).forEach(f -> links.put(f.file().name(), f.file().url(runId)));
        return links;
    }
}
