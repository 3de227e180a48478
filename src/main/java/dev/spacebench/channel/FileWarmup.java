package dev.spacebench.channel;

import dev.spacebench.files.RandomFiles;
import dev.spacebench.files.Sha256;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Untimed uploads and downloads that let a fresh agent JVM (or whatever serves files at the far
 * end of the channel), and the host's side of the channel,
 * compile their file paths (reading, SHA-256, framing, writing) before any file loop is measured,
 * as the agent warm-up does for exec. Without it a run's first hundreds of MiB go through code the
 * JIT has not compiled yet: measured with {@code spacebench.jar floor transfer}, a fresh agent's
 * 100 MiB stream download took 600–700 ms of agent CPU for the first ones against 140–190 ms once
 * compiled, and a run's default (one warm-up iteration, then n) measured mostly the cold ones.
 *
 * <p>A failure here is not counted: the loops that follow meet the same agent and count theirs.
 */
public final class FileWarmup {

    /** The warm-up file's size: 16 messages per stream transfer, little disk. */
    public static final long FILE_BYTES = 16L << 20;
    /** Uploads and downloads of it at most: 256 MiB each way, what the agent needed in {@code floor transfer}. */
    public static final int TIMES = 16;

    private FileWarmup() {}

    /**
     * How many warm-up transfers a lane gets: as many files of {@link #FILE_BYTES} as the lane's own
     * transfers hold (rounded up), at least 1 and at most {@link #TIMES}. Warming more than the
     * loops then move would cost a small plan far more than its measurement (a 1 MiB plan paid
     * 512 MiB each way) without making its figures any warmer than a plan's own bytes would.
     *
     * @param laneBytes bytes the lane's loops move each way, warm-ups included (&gt; 0)
     */
    public static int times(long laneBytes) {
        long files = laneBytes / FILE_BYTES + (laneBytes % FILE_BYTES == 0 ? 0 : 1);
        return (int) Math.max(1, Math.min(TIMES, files));
    }

    /**
     * Uploads and downloads a random file of {@link #FILE_BYTES} {@code times} times on
     * {@code lane}, then removes it on both ends.
     *
     * @param staging an existing host directory for the warm-up's source and received files
     * @param times uploads and downloads, 0 or more ({@link #TIMES} in a run)
     * @return transfers made each way (fewer than {@code times} when one failed)
     */
    public static int run(Channel channel, Lane lane, Path staging, int times) {
        long fileBytes = FILE_BYTES;
        Path source = staging.resolve("warm-up-source");
        Path received = staging.resolve("warm-up-received");
        String remote = "files/warm-up";
        Duration timeout = Duration.ofSeconds(60 + fileBytes / (2L << 20));
        int done = 0;
        try {
            Sha256.Result written = RandomFiles.write(source, fileBytes);
            FileRef expected = new FileRef(written.size(), written.sha256());
            for (; done < times; done++) {
                channel.upload(source, expected, remote, lane, timeout);
                channel.download(remote, expected, received, lane, timeout);
                Files.delete(received);
            }
        } catch (IOException | RuntimeException e) {
            // the measured loops will show it
        } finally {
            try {
                Files.deleteIfExists(source);
                Files.deleteIfExists(received);
                channel.delete(remote, timeout);
            } catch (IOException | RuntimeException ignored) {
                // a loop's own clean-up meets the same trouble and reports it
            }
        }
        return done;
    }
}
