package dev.spacebench.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spacebench.agent.InProcessAgent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host's channel against the real agent service over an in-process transport. */
class AgentChannelInProcessTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void infoComesBackAsTheDomainRecord() throws Exception {
        try (InProcessAgent agent = new InProcessAgent(dir); AgentChannel channel = agent.channel(InProcessAgent.TOKEN, 64 * 1024)) {
            AgentInfo info = channel.info(TIMEOUT);
            assertThat(info.process().agentVersion()).isEqualTo("test");
            assertThat(info.system().cpuCount()).isEqualTo(Runtime.getRuntime().availableProcessors());
            assertThat(info.process().pid()).isEqualTo(ProcessHandle.current().pid());
            assertThat(Path.of(info.dirs().workDir()).toRealPath()).isEqualTo(dir.resolve("work").toRealPath());
            assertThat(info.dirs().bulkDirId()).matches("[0-9a-f]{64}")
                    .isEqualTo(Files.readString(dir.resolve("bulk/.spacebench-bulk-id")).strip());
        }
    }

    @Test
    void aBulkDownloadIsOneCopyByTheAgentAndOneHashByTheHost() throws Exception {
        byte[] bytes = new byte[3 << 20];
        new Random(7).nextBytes(bytes);
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        Files.createDirectories(dir.resolve("work"));
        Files.write(dir.resolve("work/out.bin"), bytes);
        try (InProcessAgent agent = new InProcessAgent(dir); AgentChannel channel = agent.bulkChannel(InProcessAgent.TOKEN, 64 * 1024)) {
            FileRef got = channel.download("out.bin", new FileRef(bytes.length, sha), dir.resolve("got.bin"), Lane.BULK, TIMEOUT);
            assertThat(got).isEqualTo(new FileRef(bytes.length, sha));
            assertThat(Files.readAllBytes(dir.resolve("got.bin"))).isEqualTo(bytes);

            // The agent no longer hashes what it exports; the host's own hash of the bulk file is
            // the check, and it names where the bytes differed.
            FileRef wrong = new FileRef(bytes.length, "0".repeat(64));
            assertThatThrownBy(() -> channel.download("out.bin", wrong, dir.resolve("got-2.bin"), Lane.BULK, TIMEOUT))
                    .isInstanceOf(TransferException.class)
                    .hasMessageContaining("(bytes in the bulk directory)")
                    .hasMessageContaining("got " + bytes.length + " bytes with SHA-256 " + sha);
            assertThat(dir.resolve("got-2.bin")).doesNotExist();
            try (var left = Files.list(dir.resolve("bulk"))) {
                assertThat(left.map(p -> p.getFileName().toString())).as("nothing left in the bulk directory but its id")
                        .containsExactly(".spacebench-bulk-id");
            }
        }
    }

    @Test
    void execRunsARealProcessAndReportsItsExitCodeAndOutput() throws Exception {
        try (InProcessAgent agent = new InProcessAgent(dir); AgentChannel channel = agent.channel(InProcessAgent.TOKEN, 64 * 1024)) {
            ExecResult result = channel.exec(List.of("sh", "-c", "printf hello; exit 3"), TIMEOUT);
            assertThat(result.exitCode()).isEqualTo(3);
            assertThat(new String(result.stdout())).isEqualTo("hello");
        }
    }

    @Test
    void anUploadArrivesWhole() throws Exception {
        byte[] data = new byte[300_000];
        new Random(7).nextBytes(data);
        Path source = Files.write(dir.resolve("source.bin"), data);
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        try (InProcessAgent agent = new InProcessAgent(dir.resolve("agent")); AgentChannel channel = agent.channel(InProcessAgent.TOKEN, 64 * 1024)) {
            channel.upload(source, new FileRef(data.length, sha), "up.bin", Lane.STREAM, TIMEOUT);
            assertThat(Files.readAllBytes(dir.resolve("agent/work/up.bin"))).isEqualTo(data);
        }
    }

    @Test
    void eachTransferCarriesTheAgentsOwnTimeWithinItsRoundTrip() throws Exception {
        byte[] data = new byte[2_000_000];
        new Random(11).nextBytes(data);
        Path source = Files.write(dir.resolve("source.bin"), data);
        FileRef ref = new FileRef(data.length, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data)));
        try (InProcessAgent agent = new InProcessAgent(dir.resolve("agent")); AgentChannel channel = agent.channel(InProcessAgent.TOKEN, 64 * 1024)) {
            long start = System.nanoTime();
            channel.upload(source, ref, "up.bin", Lane.STREAM, TIMEOUT);
            long upload = System.nanoTime() - start;
            assertThat(channel.lastTransferAgentNs()).as("upload").isPositive().isLessThanOrEqualTo(upload);

            start = System.nanoTime();
            channel.download("up.bin", ref, dir.resolve("down.bin"), Lane.STREAM, TIMEOUT);
            long download = System.nanoTime() - start;
            assertThat(channel.lastTransferAgentNs()).as("download").isPositive().isLessThanOrEqualTo(download);
        }
    }

    @Test
    void aWrongTokenIsRefused() throws Exception {
        try (InProcessAgent agent = new InProcessAgent(dir); AgentChannel channel = agent.channel("wrong", 64 * 1024)) {
            assertThatThrownBy(() -> channel.ping(TIMEOUT)).isInstanceOf(AgentCallException.class)
                    .hasMessageContaining("UNAUTHENTICATED");
        }
    }
}
