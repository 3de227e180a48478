package dev.spacebench;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A tmpfs of a set size mounted on a new directory, for the tests that fill a disk for real.
 * Mounting needs root: elsewhere (or when the mount fails) the test is skipped, saying so.
 */
final class SmallDisk implements AutoCloseable {

    private final Path dir;

    private SmallDisk(Path dir) {
        this.dir = dir;
    }

    /**
     * @param dir a directory to create and mount on
     * @param size tmpfs's size option, e.g. {@code 64m}
     * @param test the test's name, for the skip message
     */
    static SmallDisk mount(Path dir, String size, String test) throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), test + ": needs root to mount a tmpfs");
        Files.createDirectory(dir);
        Process mounting = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString())
                .redirectErrorStream(true).start();
        assumeTrue(mounting.waitFor(30, TimeUnit.SECONDS) && mounting.exitValue() == 0,
                test + ": could not mount a tmpfs: " + new String(mounting.getInputStream().readAllBytes()));
        return new SmallDisk(dir);
    }

    Path dir() {
        return dir;
    }

    @Override
    public void close() throws Exception {
        new ProcessBuilder("umount", "-l", dir.toString()).start().waitFor(30, TimeUnit.SECONDS);
    }
}
