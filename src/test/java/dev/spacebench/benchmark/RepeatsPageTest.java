package dev.spacebench.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

/**
 * Issue 29 point 5 on the page: /benchmarks/{slug} pools the runs published since the plan last
 * changed. Four real runs: one of another plan, then three of the same; the pooled p50 is checked
 * against the nearest-rank median the test computes itself from the three runs' samples.csv.
 */
class RepeatsPageTest extends AppTestSupport {

    private static final String PLAN = "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"true\"],"
            + "\"n\":N,\"warmups\":1,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[],\"warmups\":0},\"floor\":{\"enabled\":false}}}";

    private long succeededRun(int n) throws Exception {
        var created = post("/api/runs", PLAN.replace("N", Integer.toString(n)));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long id = json(created).get("id").asLong();
        assertThat(awaitFinished(id, Duration.ofSeconds(180)).get("status").asString()).isEqualTo("SUCCEEDED");
        return id;
    }

    private void publish(String slug, long run) throws Exception {
        var published = post("/api/benchmarks", "{\"slug\":\"" + slug + "\",\"runId\":" + run + "}");
        assertThat(published.statusCode()).as(published.body()).isIn(200, 201);
    }

    @Test
    void threeRunsOfOnePlanArePooledAndASingleRunSaysItIsOne() throws Exception {
        long other = succeededRun(10);
        List<Long> same = List.of(succeededRun(20), succeededRun(20), succeededRun(20));
        publish("repeats-pooled", other);
        for (long run : same) {
            publish("repeats-pooled", run);
        }
        Document page = Jsoup.parse(get("/benchmarks/repeats-pooled").body());
        assertThat(page.select("#repeats-k .k").text()).isEqualTo("3");
        assertThat(page.select("#repeats-one-run")).isEmpty();
        assertThat(page.select("#repeats-k").text()).contains("#" + same.get(2), "#" + same.get(0)).doesNotContain("#" + other);
        Element row = page.selectFirst("#repeats-table tbody tr");
        assertThat(row.selectFirst("th").text()).isEqualTo("true");
        List<String> cells = row.select("td").eachText();
        assertThat(cells.get(0)).isEqualTo("3");
        // The pooled nearest-rank median of the 60 samples: rank 30 of them sorted; each run's, rank 10 of 20.
        List<Long> pooled = new ArrayList<>();
        List<Long> runMedians = new ArrayList<>();
        for (long run : same) {
            List<Long> mine = measuredTrue(get("/api/runs/" + run + "/samples.csv").body());
            assertThat(mine).hasSize(20);
            pooled.addAll(mine);
            runMedians.add(mine.stream().sorted().toList().get(9));
        }
        long median = pooled.stream().sorted().toList().get(29);
        assertThat(ns(cells.get(1))).isCloseTo(median, org.assertj.core.data.Percentage.withPercentage(0.6));
        String[] interval = cells.get(2).split(" – ");
        assertThat(interval).hasSize(2);
        assertThat(ns(interval[0])).isLessThanOrEqualTo(ns(cells.get(1)));
        assertThat(ns(interval[1])).isGreaterThanOrEqualTo(ns(cells.get(1)));
        String[] spread = cells.get(5).split(" – ");
        assertThat(ns(spread[0])).isCloseTo(runMedians.stream().mapToLong(Long::longValue).min().orElseThrow(),
                org.assertj.core.data.Percentage.withPercentage(0.6));
        assertThat(ns(spread[1])).isCloseTo(runMedians.stream().mapToLong(Long::longValue).max().orElseThrow(),
                org.assertj.core.data.Percentage.withPercentage(0.6));

        publish("repeats-single", same.get(1));
        Document single = Jsoup.parse(get("/benchmarks/repeats-single").body());
        assertThat(single.select("#repeats-one-run").text()).contains("one run");
        assertThat(single.select("#repeats-k")).isEmpty();
        assertThat(single.select("#repeats-table thead th").eachText()).doesNotContain("p50 95% interval");
    }

    private static List<Long> measuredTrue(String csv) {
        String[] lines = csv.split("\n");
        List<String> header = List.of(lines[0].strip().split(","));
        List<Long> values = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            String[] cells = lines[i].strip().split(",", -1);
            if (cells[header.indexOf("metric")].equals("exec.true") && cells[header.indexOf("phase")].equals("measured")
                    && cells[header.indexOf("ok")].equals("true")) {
                values.add(Long.parseLong(cells[header.indexOf("ns")]));
            }
        }
        return values;
    }

    /** "850 ns", "215 µs", "2.89 ms", "1.23 s" → ns, parsed here rather than by the app's formatter. */
    private static double ns(String text) {
        String[] parts = text.strip().split(" ");
        double value = Double.parseDouble(parts[0]);
        return switch (parts[1].toLowerCase(Locale.ROOT)) {
            case "ns" -> value;
            case "µs" -> value * 1e3;
            case "ms" -> value * 1e6;
            case "s" -> value * 1e9;
            default -> throw new AssertionError("unit of " + text);
        };
    }
}
