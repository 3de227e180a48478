package dev.spacebench.space.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A live owner is never taken for gone; a reused pid (another start) is. */
class OwnerMarkTest {

    @TempDir
    Path dir;

    @Test
    void thisLiveProcessOwnsItsMarkAndAnotherStartOfItsPidDoesNot() throws Exception {
        OwnerMark.write(dir);
        assertThat(OwnerMark.ownerGone(dir)).hasValue(false);

        // The kernel's start ticks, read here from /proc/self/stat independently of OwnerMark's parser.
        String stat = Files.readString(Path.of("/proc/self/stat"));
        long ticks = Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[19]);
        assertThat(Files.readString(dir.resolve(OwnerMark.FILE))).contains("ticks=" + ticks + "\n");

        long pid = ProcessHandle.current().pid();
        Files.writeString(dir.resolve(OwnerMark.FILE), "pid=" + pid + "\nstarted=x\nticks=" + (ticks + 1) + "\n");
        assertThat(OwnerMark.ownerGone(dir)).as("same pid, started one tick later: a reused pid").hasValue(true);
    }

    @Test
    void aMarkWithoutTicksAllowsTheSecondTwoJvmsMayDisagreeBy() throws Exception {
        long pid = ProcessHandle.current().pid();
        Instant started = ProcessHandle.current().info().startInstant().orElseThrow();
        Files.writeString(dir.resolve(OwnerMark.FILE), "pid=" + pid + "\nstarted=" + started.plusSeconds(1) + "\n");
        assertThat(OwnerMark.ownerGone(dir)).as("one second off: the boot time each JVM read").hasValue(false);
        Files.writeString(dir.resolve(OwnerMark.FILE), "pid=" + pid + "\nstarted=" + started.plusSeconds(30) + "\n");
        assertThat(OwnerMark.ownerGone(dir)).as("30 s off: another process").hasValue(true);
    }
}
