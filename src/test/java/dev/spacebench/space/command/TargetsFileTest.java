package dev.spacebench.space.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spacebench.channel.command.CommandTarget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The targets file: what it holds once read, and each bad file refused naming the file, the entry and the field. */
class TargetsFileTest {

    @TempDir
    Path dir;

    @Test
    void theShippedExampleReadsWithItsThreeTargets() {
        Map<String, CommandTarget> targets = TargetsFile.read(Path.of("docs/targets.example.yaml"));
        assertThat(targets).containsOnlyKeys("podman", "ssh", "kubectl");
        CommandTarget podman = targets.get("podman");
        assertThat(podman.exec().argv()).containsExactly("podman", "exec", "{id}", "{argv}");
        assertThat(podman.movesFiles()).isTrue();
        assertThat(podman.create().timeout()).isEqualTo(Duration.ofSeconds(120));
    }

    @Test
    void aListOrAMapWithTimeoutReadsInTheFilesOrder() throws Exception {
        Map<String, CommandTarget> targets = TargetsFile.read(file("""
                targets:
                  b-first:
                    exec: {argv: [sh, -c, 'exec "$@"', sh, "{argv}"], timeout: 1500ms}
                  a-second:
                    create: [mktemp, -d]
                    exec: [env, -C, "{id}", "{argv}"]
                    upload: [cp, "{local}", "{remote}"]
                    workDir: "{id}/w"
                """));
        assertThat(targets.keySet()).containsExactly("b-first", "a-second");
        assertThat(targets.get("b-first").exec().timeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(targets.get("b-first").exec().argv()).containsExactly("sh", "-c", "exec \"$@\"", "sh", "{argv}");
        assertThat(targets.get("a-second").exec().timeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(targets.get("a-second").movesFiles()).as("upload without download").isFalse();
        assertThat(targets.get("a-second").workDir()).isEqualTo("{id}/w");
        assertThat(targets.get("a-second").exec().expand(Map.of("{id}", "/tmp/x y"), List.of("sh", "-c", "true")))
                .containsExactly("env", "-C", "/tmp/x y", "sh", "-c", "true");
    }

    @Test
    void aShellStringIsRefusedNamingFileEntryAndField() throws Exception {
        refused("""
                targets:
                  mine:
                    exec: "podman exec {id} {argv}"
                """, "mine", "exec", "is a string (a shell line); give an argv list");
        refused("""
                targets:
                  mine:
                    exec: [sh, "{argv}"]
                    upload: {argv: "cp {local} {remote}"}
                """, "mine", "upload.argv", "is a string (a shell line)");
    }

    @Test
    void anUnknownPlaceholderIsRefused() throws Exception {
        refused("""
                targets:
                  mine:
                    exec: [podman, exec, "{container}", "{argv}"]
                """, "mine", "exec", "unknown placeholder {container}; the placeholders are [{id}, {argv}, {local}, {remote}]");
    }

    @Test
    void aMissingExecIsRefused() throws Exception {
        refused("""
                targets:
                  fine:
                    exec: [sh, "{argv}"]
                  broken:
                    create: [mktemp, -d]
                """, "broken", "exec", "missing: every target needs exec");
    }

    @Test
    void placeholdersOutOfPlaceUnknownFieldsAndBadTimeoutsAreRefused() throws Exception {
        refused("targets:\n  t:\n    exec: [podman, exec, \"{id}\", \"{argv}\"]\n", "t", "exec",
                "{id} cannot be used here: {id} is what create prints, and this target has no create");
        refused("targets:\n  t:\n    exec: [sh, \"x{argv}\"]\n", "t", "exec", "{argv} must be one word of its own, once");
        refused("targets:\n  t:\n    exec: [sh, \"{argv}\"]\n    download: [cp, \"{remote}\", out]\n", "t", "download",
                "must hold both {local}");
        refused("targets:\n  t:\n    exec: [sh, \"{argv}\"]\n    run: [x]\n", "t", "run", "unknown field");
        refused("targets:\n  t:\n    exec: {argv: [sh, \"{argv}\"], timeout: 60}\n", "t", "exec.timeout", "must be a duration with its unit");
        refused("targets:\n  t:\n    create: [echo, \"{id}\"]\n    exec: [sh, \"{argv}\"]\n", "t", "create", "{id} cannot be used here");
    }

    @Test
    void aFileThatIsNotThereOrNotYamlIsRefusedNamingIt() throws Exception {
        assertThatThrownBy(() -> TargetsFile.read(dir.resolve("none.yaml")))
                .hasMessageContaining("targets file " + dir.resolve("none.yaml")).hasMessageContaining("no readable file there");
        Path bad = file("targets: [\n");
        assertThatThrownBy(() -> TargetsFile.read(bad)).hasMessageContaining("targets file " + bad).hasMessageContaining("not valid YAML");
        Path twice = file("targets:\n  t:\n    exec: [sh, \"{argv}\"]\n  t:\n    exec: [sh, \"{argv}\"]\n");
        assertThatThrownBy(() -> TargetsFile.read(twice)).hasMessageContaining("not valid YAML").hasMessageContaining("Duplicate");
    }

    private void refused(String yaml, String entry, String field, String problem) throws Exception {
        Path file = file(yaml);
        assertThatThrownBy(() -> TargetsFile.read(file)).isInstanceOfSatisfying(TargetsFileException.class, e -> {
            assertThat(e.getMessage()).startsWith("targets file " + file + ": entry '" + entry + "', field '" + field + "': ")
                    .contains(problem);
            assertThat(e.entry()).isEqualTo(entry);
            assertThat(e.field()).isEqualTo(field);
        });
    }

    private Path file(String yaml) throws Exception {
        return Files.writeString(Files.createTempFile(dir, "targets-", ".yaml"), yaml);
    }
}
