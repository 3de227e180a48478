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
 * import each other; plan sits below everything; the Space API does not reach into its kinds;
 * run imports neither publish nor fleet, floor does not import measure, the agent not environment.
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
        // request's errors sit just above plan: a request body's field errors name plan's limits and the Space's.
        assertThat(imports()).filteredOn(i -> i.file().startsWith("request"))
                .filteredOn(i -> !i.imported().startsWith("dev.spacebench.plan.") && !i.imported().equals("dev.spacebench.space.SpaceSpec"))
                .isEmpty();
    }

    @Test
    void theSpaceApiImportsNoneOfItsKindPackages() throws IOException {
        // The kind packages (and space.local, space.limits) depend on space, never the reverse.
        assertThat(imports()).filteredOn(i -> i.file().getParent() != null && i.file().getParent().equals(Path.of("space")))
                .filteredOn(i -> i.imported().matches("dev\\.spacebench\\.space\\.[a-z]+\\..*"))
                .isEmpty();
    }

    // Issue 26: four arrows ran back up the layers. Each was inverted (an interface owned by the lower
    // package, or the shared code moved below both); these keep them from coming back.

    @Test
    void runListsARunsDownloadsWithoutImportingPublish() throws IOException {
        // RunController took publish.export.RunExporters; it now takes run.RunLinks, which RunExporters implements.
        assertThat(imports()).filteredOn(i -> i.file().startsWith("run")).filteredOn(i -> i.imported().startsWith("dev.spacebench.publish."))
                .isEmpty();
    }

    @Test
    void fleetUsesRunAndRunDoesNotImportTheFleet() throws IOException {
        // The claimer (RunWorker) lives in fleet beside the claims and leases; run asks a QueueWaker and a
        // TestbedCheck, which fleet implements.
        assertThat(imports()).filteredOn(i -> i.file().startsWith("run")).filteredOn(i -> i.imported().startsWith("dev.spacebench.fleet."))
                .isEmpty();
    }

    @Test
    void theFloorDoesNotImportMeasure() throws IOException {
        // measure reads floors (FloorLoops, AgentJitSettle); floor's TransferCost took measure.FileWarmup, now channel.FileWarmup.
        assertThat(imports()).filteredOn(i -> i.file().startsWith("floor")).filteredOn(i -> i.imported().startsWith("dev.spacebench.measure."))
                .isEmpty();
    }

    @Test
    void theAgentDoesNotImportTheHostsEnvironment() throws IOException {
        // AgentService took environment.SystemFacts (which reaches space); it reads linux.LinuxFacts, below both.
        assertThat(imports()).filteredOn(i -> i.file().startsWith("agent")).filteredOn(i -> i.imported().startsWith("dev.spacebench.environment."))
                .isEmpty();
        assertThat(imports()).filteredOn(i -> i.file().startsWith("linux")).isEmpty();
    }

    @Test
    void sampleStorageDoesNotImportTheRunAboveIt() throws IOException {
        // SampleBatches took run.RunStatus to check a run is still running; RunRecorder now passes the status's name in.
        assertThat(imports()).filteredOn(i -> i.file().startsWith(Path.of("run", "samples")))
                .filteredOn(i -> i.imported().startsWith("dev.spacebench.run.") && !i.imported().startsWith("dev.spacebench.run.samples."))
                .isEmpty();
    }

    @Test
    void runsTopLevelHoldsAtMost25Files() throws IOException {
        // Sample storage is in run/samples, deleting a run in run/deletion, the claimer in fleet.
        try (Stream<Path> files = Files.list(MAIN.resolve("run"))) {
            assertThat(files.filter(Files::isRegularFile).map(f -> f.getFileName().toString()).toList()).hasSizeLessThanOrEqualTo(25);
        }
    }

    @Test
    void aComparisonReadsStoredFactsNotAWholeReport() throws IOException {
        assertThat(imports()).filteredOn(i -> i.file().startsWith("compare") && i.imported().equals("dev.spacebench.publish.RunReport")).isEmpty();
    }
}
