package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The import rules of the layers, read from the sources: controllers are the top of the web
 * layer, so nothing imports one; the command line and the web app's configuration class do not
 * import each other; plan sits below everything; the Space API does not reach into its kinds.
 */
class LayeringTest {

    private static final Path MAIN = Path.of("src/main/java/dev/spacebench");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?(dev\\.spacebench\\.[\\w.]+);", Pattern.MULTILINE);

    private record Import(Path file, String imported) {}

    private static List<Import> imports() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN)) {
            return files.filter(f -> f.toString().endsWith(".java")).flatMap(f -> {
                try {
                    Matcher m = IMPORT.matcher(Files.readString(f));
                    return m.results().map(r -> new Import(MAIN.relativize(f), r.group(1))).toList().stream();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
        }
    }

    @Test
    void noClassImportsAController() throws IOException {
        assertThat(imports()).filteredOn(i -> i.imported().endsWith("Controller")).isEmpty();
    }

    @Test
    void theCommandLineAndTheWebAppsConfigurationDoNotImportEachOther() throws IOException {
        List<Import> all = imports();
        assertThat(all).filteredOn(i -> i.file().startsWith("cli") && i.imported().equals("dev.spacebench.SpacebenchApplication")).isEmpty();
        assertThat(all).filteredOn(i -> i.file().equals(Path.of("SpacebenchApplication.java")) && i.imported().startsWith("dev.spacebench.cli.")).isEmpty();
    }

    @Test
    void theCommandLineLooksUpNoBeansOneByOne() throws IOException {
        try (Stream<Path> files = Files.list(MAIN.resolve("cli"))) {
            long lookups = files.mapToLong(f -> {
                try {
                    return Pattern.compile("getBean\\(").matcher(Files.readString(f)).results().count();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).sum();
            assertThat(lookups).as("getBean calls under cli").isLessThanOrEqualTo(1);
        }
    }

    @Test
    void planIsBelowEverythingAndKnowsNoRequestErrors() throws IOException {
        // plan may read the protocol's constants (chunk and message sizes), nothing else of the app.
        assertThat(imports()).filteredOn(i -> i.file().startsWith("plan"))
                .filteredOn(i -> !i.imported().startsWith("dev.spacebench.plan.") && !i.imported().startsWith("dev.spacebench.protocol."))
                .isEmpty();
        try (Stream<Path> files = Files.list(MAIN.resolve("plan"))) {
            assertThat(files.filter(f -> {
                try {
                    return Pattern.compile("\\b(FieldError|InvalidRequestException)\\b").matcher(Files.readString(f)).find();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList()).as("plan files naming the request's errors").isEmpty();
        }
        assertThat(imports()).filteredOn(i -> i.file().startsWith("request")).isEmpty();
    }

    @Test
    void theSpaceApiImportsNoneOfItsKindPackages() throws IOException {
        // The kind packages (and space.local, space.limits) depend on space, never the reverse.
        assertThat(imports()).filteredOn(i -> i.file().getParent() != null && i.file().getParent().equals(Path.of("space")))
                .filteredOn(i -> i.imported().matches("dev\\.spacebench\\.space\\.[a-z]+\\..*"))
                .isEmpty();
    }

    @Test
    void aComparisonReadsStoredFactsNotAWholeReport() throws IOException {
        assertThat(imports()).filteredOn(i -> i.file().startsWith("compare") && i.imported().equals("dev.spacebench.publish.RunReport")).isEmpty();
    }
}
