package dev.spacebench.publish.plot;

import static dev.spacebench.publish.plot.ThroughputPlot.Direction.DOWNLOAD;
import static dev.spacebench.publish.plot.ThroughputPlot.Direction.UPLOAD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.spacebench.channel.Lane;
import dev.spacebench.publish.plot.ThroughputPlot.Point;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

class ThroughputPlotTest {

    private static final long MIB = 1 << 20;

    private static final List<Point> POINTS = List.of(
            new Point(UPLOAD, Lane.STREAM, 16 * MIB, 700),
            new Point(UPLOAD, Lane.STREAM, MIB, 300),
            new Point(UPLOAD, Lane.STREAM, 4 * MIB, 600),
            new Point(DOWNLOAD, Lane.STREAM, MIB, 250),
            new Point(DOWNLOAD, Lane.STREAM, 4 * MIB, 310),
            new Point(DOWNLOAD, Lane.STREAM, 16 * MIB, 320),
            new Point(UPLOAD, Lane.BULK, 4 * MIB, 900),
            new Point(DOWNLOAD, Lane.BULK, 4 * MIB, 1000));

    @Test
    void sizesRunLeftToRightOnALog2Axis() throws Exception {
        SvgXml xml = new SvgXml(ThroughputPlot.svg("File transfer", POINTS));

        assertThat(xml.texts("//g[@class='x-axis']/text[@class='tick']")).containsExactly("1 MiB", "4 MiB", "16 MiB");
        double oneMiB = centre(xml.elements("//*[@class='point'][@data-direction='upload'][@data-lane='stream'][@data-bytes='1048576']").get(0));
        double fourMiB = centre(xml.elements("//*[@class='point'][@data-direction='upload'][@data-lane='stream'][@data-bytes='4194304']").get(0));
        double sixteenMiB = centre(xml.elements("//*[@class='point'][@data-direction='upload'][@data-lane='stream'][@data-bytes='16777216']").get(0));
        assertThat(oneMiB).isLessThan(fourMiB);
        assertThat(fourMiB - oneMiB).as("two doublings each").isCloseTo(sixteenMiB - fourMiB, within(0.2));
    }

    @Test
    void lanesHaveTheirOwnMarkerAndLine() throws Exception {
        SvgXml xml = new SvgXml(ThroughputPlot.svg("File transfer", POINTS));

        assertThat(xml.elements("//circle[@class='point']")).hasSize(6).allMatch(e -> e.getAttribute("data-lane").equals("stream"));
        assertThat(xml.elements("//rect[@class='point']")).hasSize(2).allMatch(e -> e.getAttribute("data-lane").equals("bulk"));
        assertThat(xml.elements("//g[@class='line']")).hasSize(4);
        Element bulkLine = xml.elements("//g[@class='line'][@data-lane='bulk'][@data-direction='upload']/polyline").get(0);
        assertThat(bulkLine.getAttribute("stroke-dasharray")).isNotEmpty();
        assertThat(xml.texts("//g[@class='legend']//text")).containsExactly("Upload", "Download", "stream lane", "bulk lane");
        assertThat(xml.texts("/svg/title")).containsExactly("File transfer");
        assertThat(xml.texts("/svg/desc").get(0)).contains("Upload, bulk lane, 4 MiB: 900.0 MiB/s");
        assertThat(xml.texts("//text[@class='axis-title']")).contains("Throughput (MiB/s)");
    }

    @Test
    void fasterIsHigher() throws Exception {
        SvgXml xml = new SvgXml(ThroughputPlot.svg("File transfer", POINTS));

        Element bulk = xml.elements("//rect[@class='point'][@data-direction='download']").get(0);
        Element stream = xml.elements("//circle[@class='point'][@data-direction='download'][@data-bytes='4194304']").get(0);
        double bulkY = SvgXml.number(bulk, "y") + SvgXml.number(bulk, "height") / 2;
        assertThat(bulkY).as("1000 MiB/s above 310 MiB/s").isLessThan(SvgXml.number(stream, "cy"));
        assertThat(xml.texts("//rect[@class='point'][@data-direction='download']/title"))
                .containsExactly("download, bulk lane, 4 MiB: 1000.0 MiB/s");
    }

    @Test
    void sizeLabelsUseThePlansUnits() {
        assertThat(ThroughputPlot.sizeLabel(MIB)).isEqualTo("1 MiB");
        assertThat(ThroughputPlot.sizeLabel(256 * 1024)).isEqualTo("256 KiB");
        assertThat(ThroughputPlot.sizeLabel(1L << 30)).isEqualTo("1 GiB");
        assertThat(ThroughputPlot.sizeLabel(1000)).isEqualTo("1000 B");
    }

    @Test
    void refusesNothingToPlotAndImpossiblePoints() {
        assertThatThrownBy(() -> ThroughputPlot.svg("t", List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Point(UPLOAD, Lane.STREAM, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Point(UPLOAD, Lane.STREAM, 1, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Horizontal centre of a circle or square marker. */
    private static double centre(Element marker) {
        return marker.getTagName().equals("circle") ? SvgXml.number(marker, "cx")
                : SvgXml.number(marker, "x") + SvgXml.number(marker, "width") / 2;
    }
}
