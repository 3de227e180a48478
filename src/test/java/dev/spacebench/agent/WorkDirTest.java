package dev.spacebench.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkDirTest {

    @TempDir
    Path temp;

    @Test
    void acceptsRelativePathsInside() throws Exception {
        Path root = Files.createDirectory(temp.resolve("work"));
        WorkDir dir = new WorkDir(root);
        assertThat(dir.resolve("a/b.bin")).isEqualTo(root.toRealPath().resolve("a/b.bin"));
        assertThat(dir.resolve("./c.bin")).isEqualTo(root.toRealPath().resolve("c.bin"));
    }

    @Test
    void refusesAbsoluteDotDotAndEmpty() throws Exception {
        WorkDir dir = new WorkDir(Files.createDirectory(temp.resolve("work")));
        assertThatThrownBy(() -> dir.resolve("/etc/passwd")).isInstanceOf(WorkDir.PathOutsideWorkDirException.class)
                .hasMessageContaining("absolute");
        assertThatThrownBy(() -> dir.resolve("../outside")).hasMessageContaining("'..'");
        assertThatThrownBy(() -> dir.resolve("a/../../outside")).hasMessageContaining("'..'");
        assertThatThrownBy(() -> dir.resolve("")).hasMessageContaining("empty");
        assertThatThrownBy(() -> dir.resolve(".")).hasMessageContaining("does not name a file");
    }

    @Test
    void refusesSymlinksThatLeadOutside() throws Exception {
        Path root = Files.createDirectory(temp.resolve("work"));
        Path outside = Files.createDirectory(temp.resolve("outside"));
        Files.writeString(outside.resolve("secret"), "s");
        Files.createSymbolicLink(root.resolve("escape"), outside);
        Files.createSymbolicLink(root.resolve("file-escape"), outside.resolve("secret"));
        Files.createSymbolicLink(root.resolve("dangling"), temp.resolve("nowhere"));
        WorkDir dir = new WorkDir(root);
        assertThatThrownBy(() -> dir.resolve("escape/secret")).hasMessageContaining("symlink");
        assertThatThrownBy(() -> dir.resolve("escape/new-file")).hasMessageContaining("symlink");
        assertThatThrownBy(() -> dir.resolve("file-escape")).hasMessageContaining("symlink");
        assertThatThrownBy(() -> dir.resolve("dangling")).hasMessageContaining("cannot be resolved");
    }

    @Test
    void allowsSymlinksThatStayInside() throws Exception {
        Path root = Files.createDirectory(temp.resolve("work"));
        Files.createDirectory(root.resolve("real"));
        Files.createSymbolicLink(root.resolve("alias"), root.resolve("real"));
        WorkDir dir = new WorkDir(root);
        assertThat(dir.resolve("alias/x").startsWith(root.toRealPath())).isTrue();
    }
}
