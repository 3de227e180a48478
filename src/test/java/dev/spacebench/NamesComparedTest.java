package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Decisions are made on types, not strings: no Space kind name ({@code "attach"}, {@code "vm"}…) or
 * metric id ({@code "space.ready"}, {@code "exec."}…) is compared as a string, switched on, or held
 * in a constant outside the kind's own package ({@code space} and its kinds) and {@code metric}.
 * Code above them asks {@code SpaceKinds}/{@code SpaceProvider} for a kind's capability and uses
 * the metric model's ids.
 */
class NamesComparedTest {

    private static final Path MAIN = Path.of("src/main/java/dev/spacebench");
    /** A kind's name or a metric id (or the start of one) as a Java string literal. */
    static final String NAME = "\"(?:process|sandbox|container|vm|attach"
            + "|exec\\.(?:noop|true|sh_c)?|file\\.(?:(?:upload|download)[A-Za-z0-9_.]*)?|space\\.(?:(?:ready|delete)[A-Za-z0-9_.]*)?"
            + "|floor\\.(?:(?:timer|spawn|hyperfine|grpc)[A-Za-z0-9_.]*)?|sweep\\.(?:[0-9][A-Za-z0-9_.]*)?)\"";
    static final List<Pattern> COMPARED = List.of(
            Pattern.compile(NAME + "\\s*\\.\\s*(?:equals|equalsIgnoreCase|startsWith|endsWith|contains|compareTo)\\s*\\("),
            Pattern.compile("\\.\\s*(?:equals|equalsIgnoreCase|startsWith|endsWith|contains|compareTo|matches)\\s*\\(\\s*" + NAME + "\\s*\\)"),
            Pattern.compile("(?:==|!=)\\s*" + NAME),
            Pattern.compile(NAME + "\\s*(?:==|!=)"),
            Pattern.compile("\\bcase\\s+" + NAME),
            Pattern.compile("\\bstatic\\s+final\\s+String\\s+\\w+\\s*=\\s*" + NAME + "\\s*;"));

    /** Every place under {@code root} where a name is compared, as "file:line: text". */
    static List<String> comparisons(Path root) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                Path relative = root.relativize(file);
                if (relative.startsWith("space") || relative.startsWith("metric")) {
                    continue;
                }
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i);
                    for (Pattern pattern : COMPARED) {
                        Matcher m = pattern.matcher(line);
                        if (m.find()) {
                            found.add(relative + ":" + (i + 1) + ": " + line.strip());
                            break;
                        }
                    }
                }
            }
        }
        return found;
    }

    @Test
    void noKindNameOrMetricIdIsComparedAsAStringOutsideItsPackage() throws IOException {
        assertThat(comparisons(MAIN)).isEmpty();
    }

    @Test
    void theScanFindsEachWayOfComparing(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("publish"));
        Files.createDirectories(dir.resolve("space"));
        Files.writeString(dir.resolve("publish/A.java"), String.join("\n",
                "class A {",
                "  boolean a(String kind) { return \"attach\".equals(kind); }",
                "  boolean b(String id) { return id.startsWith(\"floor.\"); }",
                "  static final String READY = \"space.ready\";",
                "  int c(String kind) { switch (kind) { case \"vm\": return 1; default: return 0; } }",
                "  boolean d(String id) { return id.equals(\"exec.sh_c\"); }",
                "  String fine() { return \"the attach kind\" + \"exec\"; }",
                "}"));
        Files.writeString(dir.resolve("space/B.java"), "class B { boolean b(String k) { return \"attach\".equals(k); } }");
        assertThat(comparisons(dir)).extracting(s -> s.substring(0, s.indexOf(": "))).containsExactly(
                "publish/A.java:2", "publish/A.java:3", "publish/A.java:4", "publish/A.java:5", "publish/A.java:6");
    }
}
