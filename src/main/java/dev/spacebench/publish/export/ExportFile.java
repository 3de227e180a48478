package dev.spacebench.publish.export;

/**
 * One downloadable file of a run.
 *
 * @param exporter the {@link RunExporter#id()} that writes it
 * @param name its file name, e.g. {@code samples.csv} or {@code exec.noop.hlog}: link text, and the name
 *     the command line's {@code --out} gives it
 * @param path where it is served below {@code /api/runs/{id}/}, e.g. {@code hlog/exec.noop.hlog}
 * @param metric the metric it is about, for formats with one file per metric; null otherwise
 */
public record ExportFile(String exporter, String name, String path, String metric) {

    /** A file served under its own name. */
    public static ExportFile of(String exporter, String name, String metric) {
        return new ExportFile(exporter, name, name, metric);
    }

    /** @return e.g. {@code /api/runs/7/samples.csv} */
    public String url(long runId) {
        return "/api/runs/" + runId + "/" + path;
    }
}
