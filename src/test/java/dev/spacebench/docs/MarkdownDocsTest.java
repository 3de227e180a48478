package dev.spacebench.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Heading;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Paragraph;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The docs as a reader sees them rendered (CommonMark with GitHub's tables, as GitHub renders them):
 * no table row that fell out of its table into a paragraph (a paragraph in the middle of a table
 * ends it, and the rows after it render as raw {@code | … |} text), and every relative link names a
 * file of this tree and an anchor that one of that file's headings makes.
 */
class MarkdownDocsTest {

    private static final Path ROOT = Path.of("").toAbsolutePath();
    /** CommonMark with GitHub's tables: how GitHub renders the docs (ConfigurationDocsTest reads its tables with it too). */
    static final Parser PARSER = Parser.builder().extensions(List.of(TablesExtension.create())).build();

    static Stream<Path> docs() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs.stream();
    }

    @ParameterizedTest
    @MethodSource("docs")
    void everyTableRowRendersInsideATable(Path doc) throws IOException {
        Node document = PARSER.parse(Files.readString(doc));
        List<String> strayRows = new ArrayList<>();
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(Paragraph paragraph) {
                String text = plainText(paragraph);
                text.lines().filter(l -> l.startsWith("|") && l.strip().endsWith("|") && l.length() > 2)
                        .forEach(l -> strayRows.add(l.length() > 100 ? l.substring(0, 100) + "…" : l));
            }
        });
        assertThat(strayRows).as("rows rendered as raw text, outside any table, in %s", ROOT.relativize(doc)).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("docs")
    void everyRelativeLinkNamesAFileAndAHeadingOfThisTree(Path doc) throws IOException {
        Node document = PARSER.parse(Files.readString(doc));
        List<String> broken = new ArrayList<>();
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(Link link) {
                String dest = link.getDestination();
                if (!dest.contains("://") && !dest.startsWith("mailto:")) {
                    String problem = check(doc, dest);
                    if (problem != null) {
                        broken.add(dest + ": " + problem);
                    }
                }
                visitChildren(link);
            }
        });
        assertThat(broken).as("broken links in %s", ROOT.relativize(doc)).isEmpty();
    }

    /** Null when {@code dest}, relative to {@code doc}, names an existing file and one of its headings' anchors. */
    private static String check(Path doc, String dest) {
        int hash = dest.indexOf('#');
        String file = hash < 0 ? dest : dest.substring(0, hash);
        Path target = file.isEmpty() ? doc : doc.getParent().resolve(URLDecoder.decode(file, StandardCharsets.UTF_8)).normalize();
        if (!target.startsWith(ROOT) || !Files.exists(target)) {
            return "no such file in this tree";
        }
        if (hash < 0 || !target.toString().endsWith(".md")) {
            return null;
        }
        String anchor = dest.substring(hash + 1);
        try {
            return anchors(target).contains(anchor) ? null : "no heading makes the anchor #" + anchor;
        } catch (IOException e) {
            return e.toString();
        }
    }

    /**
     * The anchors GitHub makes for a file's headings: the heading's text in lower case, characters
     * other than letters, digits, spaces, hyphens and underscores dropped, spaces made hyphens; a
     * repeated one gets {@code -1}, {@code -2}, … (GitHub's documented rule for section links).
     */
    static Set<String> anchors(Path file) throws IOException {
        Set<String> anchors = new HashSet<>();
        PARSER.parse(Files.readString(file)).accept(new AbstractVisitor() {
            @Override
            public void visit(Heading heading) {
                String slug = plainText(heading).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
                String unique = slug;
                for (int i = 1; !anchors.add(unique); i++) {
                    unique = slug + "-" + i;
                }
            }
        });
        return anchors;
    }

    private static String plainText(Node node) {
        StringBuilder text = new StringBuilder();
        node.accept(new AbstractVisitor() {
            @Override
            public void visit(Text t) {
                text.append(t.getLiteral());
            }

            @Override
            public void visit(org.commonmark.node.Code code) {
                text.append(code.getLiteral());
            }

            @Override
            public void visit(org.commonmark.node.SoftLineBreak br) {
                text.append('\n');
            }
        });
        return text.toString();
    }
}
