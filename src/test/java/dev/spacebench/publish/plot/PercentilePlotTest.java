package dev.spacebench.publish.plot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.spacebench.publish.plot.PercentilePlot.Point;
import dev.spacebench.publish.plot.PercentilePlot.Series;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

class PercentilePlotTest {

    /** 1 µs, 2 µs, …, n µs: the sample of rank k is k µs. */
    private static long[] microseconds(int n) {
        return LongStream.rangeClosed(1, n).map(k -> k * 1000).toArray();
    }

    @Test
    void pointsAreNearestRankValuesUpToOneMinusOneOverN() {
        List<Point> points = PercentilePlot.points(microseconds(1000));

        // 0, 10..90 (10), 91..99 (9), 99.1..99.9 (9); 99.91 needs more than 1000 samples
        assertThat(points).hasSize(28);
        assertThat(points.get(0)).isEqualTo(new Point(0, 1000));
        assertThat(points.get(9)).isEqualTo(new Point(90, 900_000));
        assertThat(points.get(18)).isEqualTo(new Point(99, 990_000));
        assertThat(points.get(27)).isEqualTo(new Point(99.9, 999_000));
        assertThat(PercentilePlot.points(microseconds(100))).hasSize(19).last().isEqualTo(new Point(99, 99_000));
        assertThat(PercentilePlot.points(microseconds(10_000))).hasSize(37).last().isEqualTo(new Point(99.99, 9_999_000));
        assertThat(PercentilePlot.points(microseconds(1))).containsExactly(new Point(0, 1000));
    }

    @Test
    void aLongLegendWrapsInsideThePictureInsteadOfBeingCutOff() throws Exception {
        String label = "bare gRPC ping over loopback TCP (no Space, no token)";
        String svg = PercentilePlot.svg("Exec round trip", List.of(new Series("Space", microseconds(100)), new Series(label, microseconds(100))));

        SvgXml xml = new SvgXml(svg);
        // The whole label is there, word for word, and no line is wider than the room right of the plot.
        assertThat(xml.texts("//g[@class='legend']//text").get(1).replaceAll("\\s+", " ").strip()).isEqualTo(label + " (n=100)");
        List<Element> spans = xml.elements("//g[@class='legend']//text/tspan");
        assertThat(spans).isNotEmpty();
        int legendX = Integer.parseInt(xml.root().getAttribute("width")) - 250 + 20 + 18;
        for (Element text : xml.elements("//g[@class='legend']//text")) {
            org.w3c.dom.NodeList lines = text.getChildNodes();
            for (int i = 0; i < lines.getLength(); i++) {
                String line = lines.item(i).getTextContent().strip();
                // 6.6 px a character is generous for 12 px sans-serif.
                assertThat(legendX + line.length() * 6.6).as(line).isLessThanOrEqualTo(Double.parseDouble(xml.root().getAttribute("width")));
            }
        }
    }

    @Test
    void svgHasOneLinePerSeriesOnALogarithmicAxis() throws Exception {
        String svg = PercentilePlot.svg("Exec round trip", List.of(
                new Series("Space", microseconds(1000)), new Series("bare floor", microseconds(100))));

        SvgXml xml = new SvgXml(svg);
        assertThat(xml.root().getTagName()).isEqualTo("svg");
        assertThat(xml.root().getAttribute("role")).isEqualTo("img");
        assertThat(xml.texts("/svg/title")).containsExactly("Exec round trip");
        assertThat(xml.texts("/svg/desc").get(0)).contains("Space: n=1000, p50 0.500 ms, p99 0.990 ms, max 1.000 ms");
        assertThat(xml.texts("//g[@class='x-axis']/text[@class='tick']")).containsExactly("0%", "90%", "99%", "99.9%", "99.99%");
        assertThat(xml.texts("//text[@class='axis-title']")).contains("Latency (ms)");
        assertThat(xml.texts("//g[@class='legend']//text")).containsExactly("Space (n=1000)", "bare floor (n=100)");

        List<Element> lines = xml.elements("//g[@class='line']");
        assertThat(lines).extracting(line -> line.getAttribute("data-label")).containsExactly("Space", "bare floor");
        List<double[]> space = SvgXml.polylinePoints(xml.elements("//g[@data-label='Space']/polyline").get(0));
        assertThat(space).hasSize(28);
        assertThat(xml.elements("//g[@data-label='Space']/circle")).hasSize(28);
        assertThat(SvgXml.polylinePoints(xml.elements("//g[@data-label='bare floor']/polyline").get(0))).hasSize(19);

        // Decades are evenly spaced: 0→90% as wide as 90→99%, and p90 sits on the 90% tick.
        List<Element> ticks = xml.elements("//g[@class='x-axis']/text[@class='tick']");
        double tick0 = SvgXml.number(ticks.get(0), "x");
        double tick90 = SvgXml.number(ticks.get(1), "x");
        double tick99 = SvgXml.number(ticks.get(2), "x");
        assertThat(tick90 - tick0).isCloseTo(tick99 - tick90, within(0.2));
        assertThat(space.get(9)[0]).isCloseTo(tick90, within(0.1));
        assertThat(space.get(18)[0]).isCloseTo(tick99, within(0.1));
        // Slower is higher: p99.9 (0.999 ms) above p0 (0.001 ms)
        assertThat(space.get(27)[1]).isLessThan(space.get(0)[1]);
        for (int i = 1; i < space.size(); i++) {
            assertThat(space.get(i)[0]).isGreaterThan(space.get(i - 1)[0]);
        }
    }

    @Test
    void labelsAreEscaped() throws Exception {
        String svg = PercentilePlot.svg("p<50> & \"tail\"", List.of(new Series("a<b & c", microseconds(10))));

        SvgXml xml = new SvgXml(svg);
        assertThat(xml.texts("/svg/title")).containsExactly("p<50> & \"tail\"");
        assertThat(xml.elements("//g[@class='line']").get(0).getAttribute("data-label")).isEqualTo("a<b & c");
    }

    @Test
    void refusesMissingOrUnsortedSamples() {
        assertThatThrownBy(() -> PercentilePlot.svg("t", List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Series("empty", new long[0])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Series("unsorted", new long[] {3, 1})).isInstanceOf(IllegalArgumentException.class);
    }
}
