package dev.spacebench.cli;

import dev.spacebench.publish.Format;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Prints a result.json ({@code spacebench.result/v1}) as a fixed-width table: its headline, then
 * one row per metric with n, p50, p95, p99, slowest (formatted as the page does: three
 * significant digits and a unit), MiB/s for files, and failures. Reading the written file, not
 * the database, keeps the table and the file from ever disagreeing.
 */
final class ResultTable {

    static final List<String> HEADER = List.of("metric", "lane", "n", "p50", "p95", "p99", "slowest", "MiB/s", "failed");

    private ResultTable() {}

    static void print(JsonNode result, PrintStream out) {
        out.println(result.path("run").path("headline").asString(""));
        out.println();
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADER);
        for (JsonNode m : result.path("metrics")) {
            rows.add(List.of(m.path("metric").asString(), m.path("lane").asString("") , Integer.toString(m.path("n").asInt()),
                    duration(m, "p50Ns"), duration(m, "p95Ns"), duration(m, "p99Ns"), duration(m, "slowestNs"),
                    m.path("mibPerSecond").isNumber() ? Format.mibPerSecond(m.path("mibPerSecond").asDouble()) : "",
                    Integer.toString(m.path("failures").asInt())));
        }
        int[] widths = new int[HEADER.size()];
        rows.forEach(row -> {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        });
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                // Names left-aligned, figures right-aligned so their units line up.
                String padded = i < 2 ? cell + " ".repeat(widths[i] - cell.length()) : " ".repeat(widths[i] - cell.length()) + cell;
                line.append(i == 0 ? "" : "  ").append(padded);
            }
            out.println(line.toString().stripTrailing());
        }
        printComparison(result.path("comparison"), out);
    }

    /** A comparison run's ratios (issue 29), one line per entry after the first and exec metric: "B ÷ A  exec.noop  1.02×  (95% CI 0.98–1.06)". */
    private static void printComparison(JsonNode comparison, PrintStream out) {
        if (!comparison.isObject()) {
            return;
        }
        String first = comparison.path("entries").path(0).path("label").asString("");
        out.println();
        for (JsonNode row : comparison.path("metrics")) {
            JsonNode entries = row.path("entries");
            for (int i = 1; i < entries.size(); i++) {
                JsonNode e = entries.get(i);
                String ci = !e.path("ratio").isNumber() ? "no block pairs"
                        : e.path("upper").isNumber() && e.path("lower").asDouble() > 0
                        ? "(95% CI " + Format.significant(e.path("lower").asDouble()) + "–" + Format.significant(e.path("upper").asDouble()) + ")"
                        : "(95% CI unbounded: too few blocks)";
                out.println(e.path("label").asString() + " ÷ " + first + "  " + row.path("metric").asString() + "  "
                        + (e.path("ratio").isNumber() ? Format.significant(e.path("ratio").asDouble()) + "×  " : "") + ci);
            }
        }
    }

    private static String duration(JsonNode metric, String field) {
        JsonNode ns = metric.path(field);
        return Format.duration(ns.isNumber() ? ns.asLong() : null);
    }
}
