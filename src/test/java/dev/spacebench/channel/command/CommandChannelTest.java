package dev.spacebench.channel.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spacebench.channel.Channel.Operation;
import dev.spacebench.channel.ExecResult;
import dev.spacebench.channel.FileRef;
import dev.spacebench.channel.Lane;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command channel through a target made of coreutils alone: a directory of its own as the Space
 * ({@code {id}}), exec in it with {@code env -C}, files by {@code cp}, checked by the far side's sha256sum.
 */
class CommandChannelTest {

    @TempDir
    Path dir;

    private CommandChannel channel(boolean files) throws Exception {
        assumeTrue(GroupCommand.available(), "setsid is missing: install the Debian package util-linux");
        Path space = Files.createDirectory(dir.resolve("space"));
        Duration t = Duration.ofSeconds(30);
        CommandTarget target = new CommandTarget("local-dir", new CommandStep(List.of("mktemp", "-d"), t),
                new CommandStep(List.of("env", "-C", "{id}", "{argv}"), t),
                files ? new CommandStep(List.of("cp", "{local}", "{remote}"), t) : null,
                files ? new CommandStep(List.of("cp", "{remote}", "{local}"), t) : null,
                new CommandStep(List.of("rm", "-rf", "{id}"), t), "{id}/work");
        return new CommandChannel(new CommandAccess(target, space.toString()));
    }

    @Test
    void execRunsTheArgvInPlaceOfTheWordArgvWithoutAShell() throws Exception {
        CommandChannel channel = channel(true);
        ExecResult result = channel.exec(List.of("sh", "-c", "pwd; printf '%s|' \"$@\"", "sh", "a b", "$HOME", "*"), Duration.ofSeconds(10));
        assertThat(result.exitCode()).isZero();
        assertThat(new String(result.stdout())).isEqualTo(dir.resolve("space") + "\na b|$HOME|*|");
        assertThat(channel.exec(List.of("false"), Duration.ofSeconds(10)).exitCode()).isEqualTo(1);
        assertThat(channel.unsupported(Operation.NOOP)).hasValueSatisfying(why -> assertThat(why).contains("no round trip that runs nothing"));
        assertThatThrownBy(() -> channel.noop(Duration.ofSeconds(1))).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void filesGoUpAndDownCheckedByTheFarSidesDigest() throws Exception {
        CommandChannel channel = channel(true);
        byte[] bytes = new byte[300_001];
        new Random(7).nextBytes(bytes);
        Path source = Files.write(dir.resolve("source"), bytes);
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        FileRef expected = new FileRef(bytes.length, sha);

        assertThat(channel.upload(source, expected, "files/a", Lane.STREAM, Duration.ofSeconds(30))).isEqualTo(expected);
        assertThat(Files.readAllBytes(dir.resolve("space/work/files/a"))).isEqualTo(bytes);
        Path back = dir.resolve("back");
        assertThat(channel.download("files/a", expected, back, Lane.STREAM, Duration.ofSeconds(30))).isEqualTo(expected);
        assertThat(Files.readAllBytes(back)).isEqualTo(bytes);

        // The Space's copy changed: the far side's digest says so, and the download fails naming it.
        Files.write(dir.resolve("space/work/files/a"), new byte[] {1, 2, 3});
        assertThatThrownBy(() -> channel.download("files/a", expected, dir.resolve("back2"), Lane.STREAM, Duration.ofSeconds(30)))
                .hasMessageContaining("download of files/a (the far side's sha256sum): expected 300001 bytes with SHA-256 " + sha);
        assertThat(channel.delete("files/a", Duration.ofSeconds(10))).isTrue();
        assertThat(channel.delete("files/a", Duration.ofSeconds(10))).isFalse();
    }

    @Test
    void withoutUploadTheFilesAreUnsupportedNamingTheMissingCommand() throws Exception {
        assertThat(channel(false).unsupported(Operation.FILES)).hasValue("target 'local-dir' defines no upload command in the targets file");
    }
}
