package dev.spacebench.cli;

import dev.spacebench.publish.Format;
import java.io.PrintStream;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/**
 * Prints a regression check ({@code GET /api/runs/{id}/check}'s answer, as written to check.json):
 * one line with the verdict, then each compared metric with the run's figure, the baseline's,
 * their ratio (run / baseline) and whether it passed (ratio at most the threshold).
 */
final class CheckTable {

    private CheckTable() {}

    static void print(JsonNode check, PrintStream out) {
        String statistic = check.path("statistic").asString();
        out.println("check against baseline " + check.path("baseline").asString() + " (" + statistic + ", threshold "
                + check.path("threshold").asDouble() + "): " + check.path("verdict").asString().toUpperCase(Locale.ROOT));
        int width = "metric".length();
        for (JsonNode m : check.path("metrics")) {
            width = Math.max(width, m.path("metric").asString().length());
        }
        out.println(String.format(Locale.ROOT, "%-" + width + "s  %10s  %10s  %7s  %s", "metric", "run " + statistic,
                "baseline", "ratio", "verdict"));
        for (JsonNode m : check.path("metrics")) {
            out.println(String.format(Locale.ROOT, "%-" + width + "s  %10s  %10s  %7.3f  %s", m.path("metric").asString(),
                    Format.duration(m.path("runNs").asLong()), Format.duration(m.path("baselineNs").asLong()),
                    m.path("ratio").asDouble(), m.path("pass").asBoolean() ? "pass" : "FAIL"));
        }
    }
}
