package dev.spacebench.benchmark;

import dev.spacebench.publish.Plots;
import dev.spacebench.publish.PublishedEnvironment;
import dev.spacebench.publish.RunReport;
import dev.spacebench.publish.RunReportBuilder;
import dev.spacebench.publish.export.RunExporters;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.RunService;
import dev.spacebench.space.SpacesSettings;
import dev.spacebench.system.DataDirectory;
import dev.spacebench.system.DatabaseAt;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;
import org.thymeleaf.ITemplateEngine;
import org.thymeleaf.context.Context;

/**
 * Every benchmark as a self-contained static site: {@code index.html} (all benchmarks) and one
 * folder per slug with {@code index.html}, {@code samples.csv}, {@code result.json},
 * {@code page.md}, {@code bmf.json}, {@code plots/*.svg}, {@code hlog/*.hlog} and the CSS. Links
 * are relative and stay inside the site; no JavaScript. The pages are the app's own templates,
 * rendered with {@code site} set (the path to the site's root). A site is for readers elsewhere: it
 * shows each run's environment without the publisher's paths, pids and host name
 * ({@link PublishedEnvironment}); the stored runs keep them.
 */
@Component
public class StaticSite {

    static final String CSS = "spacebench.css";
    private static final String CSS_RESOURCE = "static/css/spacebench.css";

    private final BenchmarkService benchmarks;
    private final RunReportBuilder reports;
    private final Plots plots;
    private final RunService runs;
    private final RunExporters exporters;
    private final ITemplateEngine templates;
    private final PublishedEnvironment published;

    public StaticSite(BenchmarkService benchmarks, RunReportBuilder reports, Plots plots, RunService runs,
                      RunExporters exporters, ITemplateEngine templates, DatabaseAt database, SpacesSettings spaces) {
        this.published = PublishedEnvironment.of(DataDirectory.of(database.url()), spaces.root());
        this.benchmarks = benchmarks;
        this.reports = reports;
        this.plots = plots;
        this.runs = runs;
        this.exporters = exporters;
        this.templates = templates;
    }

    /** Where the site's files go: a directory, or a zip. */
    interface Sink {
        /** @param path relative, '/'-separated, e.g. {@code command-round-trip-process/plots/exec.true.svg} */
        OutputStream open(String path) throws IOException;

        void close(OutputStream file) throws IOException;
    }

    /**
     * Writes the site into {@code dir} (created if missing; files of the same names replaced).
     *
     * @return the benchmarks written
     * @throws UncheckedIOException when a file cannot be written
     */
    @Transactional(readOnly = true)
    public int writeTo(Path dir) {
        return write(new Sink() {
            @Override
            public OutputStream open(String path) throws IOException {
                Path file = dir.resolve(path);
                Files.createDirectories(file.getParent());
                return Files.newOutputStream(file);
            }

            @Override
            public void close(OutputStream file) throws IOException {
                file.close();
            }
        });
    }

    /** Writes the site as a zip (the same files as {@link #writeTo(Path)}) to {@code out}, and closes it. */
    @Transactional(readOnly = true)
    public int zipTo(OutputStream out) {
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            int written = write(new Sink() {
                @Override
                public OutputStream open(String path) throws IOException {
                    zip.putNextEntry(new ZipEntry(path));
                    return zip;
                }

                @Override
                public void close(OutputStream file) throws IOException {
                    zip.closeEntry();
                }
            });
            zip.finish();
            return written;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private int write(Sink sink) {
        try {
            List<BenchmarkView> all = benchmarks.list();
            text(sink, "index.html", page("benchmarks", Map.of("benchmarks", all, "site", "./")));
            byte[] css = css();
            bytes(sink, CSS, css);
            for (BenchmarkView benchmark : all) {
                benchmark(sink, benchmark, css);
            }
            return all.size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void benchmark(Sink sink, BenchmarkView benchmark, byte[] css) throws IOException {
        String dir = benchmark.slug() + "/";
        long id = benchmark.runId();
        RunReport relative = reports.buildPublished(id, published).withRelativeLinks();
        List<MetricResult> results = runs.results(id);
        Map<String, String> svgs = plots.svgs(id);
        String history = HistoryPlot.svg(benchmark.history());
        text(sink, dir + "index.html", page("run", Map.of("r", relative, "svgs", svgs, "benchmark", benchmark,
                "historySvg", history == null ? "" : history, "site", "../")));
        bytes(sink, dir + CSS, css);
        for (var plot : relative.figures().plots()) {
            text(sink, dir + plot.url(), svgs.get(plot.id()));
        }
        if (relative.sweep() != null) {
            for (var plot : relative.sweep().plots()) {
                if (svgs.containsKey(plot.id())) {
                    text(sink, dir + plot.url(), svgs.get(plot.id()));
                }
            }
        }
        // Every file the run's page lists, written by the exporter that serves it (samples.csv
        // streamed, as over REST: a run's samples never sit in memory whole).
        for (RunExporters.Found found : exporters.files(id, results)) {
            OutputStream out = sink.open(dir + found.file().path());
            found.exporter().writePublished(id, found.file(), out, published);
            out.flush();
            sink.close(out);
        }
    }

    private String page(String template, Map<String, Object> variables) {
        Context context = new Context();
        variables.forEach(context::setVariable);
        return templates.process(template, context);
    }

    private static void text(Sink sink, String path, String text) throws IOException {
        bytes(sink, path, text.getBytes(StandardCharsets.UTF_8));
    }

    private static void bytes(Sink sink, String path, byte[] bytes) throws IOException {
        OutputStream out = sink.open(path);
        out.write(bytes);
        sink.close(out);
    }

    private static byte[] css() throws IOException {
        try (InputStream in = StaticSite.class.getClassLoader().getResourceAsStream(CSS_RESOURCE)) {
            if (in == null) {
                throw new IOException(CSS_RESOURCE + " is missing from the class path");
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toByteArray();
        }
    }
}
