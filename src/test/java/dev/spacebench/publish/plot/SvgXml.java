package dev.spacebench.publish.plot;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** A plot parsed as plain XML (javax.xml, not namespace-aware, so XPath needs no prefixes). */
final class SvgXml {

    private final Document document;

    /** @throws Exception if the text is not well-formed XML */
    SvgXml(String svg) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        document = factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    Element root() {
        return document.getDocumentElement();
    }

    List<Element> elements(String xpath) throws Exception {
        NodeList nodes = (NodeList) XPathFactory.newInstance().newXPath().evaluate(xpath, document, XPathConstants.NODESET);
        List<Element> elements = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            elements.add((Element) nodes.item(i));
        }
        return elements;
    }

    List<String> texts(String xpath) throws Exception {
        return elements(xpath).stream().map(Element::getTextContent).toList();
    }

    static double number(Element element, String attribute) {
        return Double.parseDouble(element.getAttribute(attribute));
    }

    /** The "x,y x,y …" of a polyline as pairs. */
    static List<double[]> polylinePoints(Element polyline) {
        List<double[]> points = new ArrayList<>();
        for (String pair : polyline.getAttribute("points").trim().split("\\s+")) {
            String[] xy = pair.split(",");
            points.add(new double[] {Double.parseDouble(xy[0]), Double.parseDouble(xy[1])});
        }
        return points;
    }
}
