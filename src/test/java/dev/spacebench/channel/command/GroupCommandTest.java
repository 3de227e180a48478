package dev.spacebench.channel.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A target's command runs in a process group and session of its own, killed whole at its timeout. */
class GroupCommandTest {

    @TempDir
    Path dir;

    @Test
    void atTheTimeoutTheWholeGroupIsKilledAndNothingIsLeft() throws Exception {
        assumeTrue(GroupCommand.available(), "setsid is missing: install the Debian package util-linux");
        Path pids = dir.resolve("pids");
        // A child in the background, and a grandchild re-parented to init by a subshell that exits (a double fork).
        String script = "sleep 301 & echo $! >> \"$1\"; (sleep 302 & echo $! >> \"$1\"); echo $$ >> \"$1\"; echo started; sleep 303";
        long start = System.nanoTime();
        GroupCommand.Result result = GroupCommand.run(List.of("sh", "-c", script, "sh", pids.toString()), Duration.ofMillis(700));
        long ms = (System.nanoTime() - start) / 1_000_000;

        assertThat(result.timedOut()).isTrue();
        assertThat(result.exitCode()).isEqualTo(-1);
        assertThat(new String(result.stdout())).isEqualTo("started\n");
        assertThat(ms).as("waited for the timeout, not for the sleeps").isBetween(700L, 15_000L);
        List<Long> started = Files.readAllLines(pids).stream().map(Long::parseLong).toList();
        assertThat(started).hasSize(3);
        long shell = started.get(2);
        for (long pid : started) {
            assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive).map(GroupCommandTest::notZombie).orElse(false))
                    .as("pid %d still running", pid).isFalse();
        }
        assertThat(GroupCommand.inSession(shell)).as("nothing left in the command's session").isEmpty();
    }

    @Test
    void aCommandThatEndsInTimeGivesItsExitCodeAndOutput() {
        assumeTrue(GroupCommand.available(), "setsid is missing: install the Debian package util-linux");
        GroupCommand.Result result = GroupCommand.run(List.of("sh", "-c", "echo out; echo err >&2; exit 3"), Duration.ofSeconds(20));
        assertThat(result.timedOut()).isFalse();
        assertThat(result.exitCode()).isEqualTo(3);
        assertThat(new String(result.stdout())).isEqualTo("out\n");
        assertThat(result.stderrHead()).isEqualTo("; stderr: err");
    }

    private static boolean notZombie(ProcessHandle process) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (Exception gone) {
            return false;
        }
    }
}
