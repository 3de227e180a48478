package dev.spacebench.floor;

import dev.spacebench.agent.AgentMain;
import dev.spacebench.channel.AgentChannel;
import dev.spacebench.channel.AgentChannels;
import dev.spacebench.channel.AgentInfo;
import dev.spacebench.channel.FileRef;
import dev.spacebench.channel.Lane;
import dev.spacebench.files.RandomFiles;
import dev.spacebench.files.Sha256;
import dev.spacebench.channel.FileWarmup;
import dev.spacebench.space.FileTrees;
import dev.spacebench.space.local.AgentArchive;
import dev.spacebench.space.local.AgentLauncher;
import dev.spacebench.space.local.AgentProcess;
import dev.spacebench.space.local.ProcessTrees;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * What one stream-lane transfer costs the agent and the client, in measures a loaded host does not
 * bend much: CPU time, heap bytes allocated, garbage collections, and the agent's resident memory
 * (now and its peak) after each transfer. It starts a real agent as a process Space does
 * ({@link AgentLauncher}'s command plus any extra JVM options, for A/B of flags), uploads one file
 * of BYTES random bytes N times and downloads it N times through the app's {@link AgentChannel}
 * over TCP loopback, host files on both ends; then the same through the bulk lane (a directory both
 * see); then the bare stream's downloads in this JVM.
 *
 * <p>Printed, not asserted: a benchmark tool ({@code spacebench.jar floor transfer BYTES N WARMUPS [JVM option…]}).
 */
final class TransferCost {

    private static final Duration TIMEOUT = Duration.ofMinutes(5);
    private static final double MIB = 1 << 20;

    private TransferCost() {}

    /**
     * @param bytes file size, at least 1
     * @param n uploads and then downloads, at least 1
     * @param warmups a run's untimed file warm-up first: uploads and downloads of its 16 MiB file
     *     ({@link FileWarmup}; a run makes {@link FileWarmup#TIMES}), 0 for none
     * @param agentOptions extra JVM options for the agent, after the launcher's own (later wins)
     * @throws IOException if the agent cannot be started, a transfer fails or /proc cannot be read
     */
    static void run(PrintStream out, long bytes, int n, int warmups, List<String> agentOptions) throws Exception {
        if (bytes < 1 || n < 1) {
            throw new IllegalArgumentException("BYTES and N must be at least 1, were " + bytes + " and " + n);
        }
        AgentArchive.ensure();
        Path dir = Files.createTempDirectory("spacebench-transfer");
        List<String> command = new ArrayList<>(AgentLauncher.command());
        // Just before the class path, so that they come after the launcher's own and win.
        command.addAll(command.indexOf("-cp"), agentOptions);
        command.addAll(List.of("--work-dir", dir.resolve("work").toString(), "--bulk-dir", dir.resolve("bulk").toString(),
                "--listen", "127.0.0.1:0", "--exit-on-stdin-eof"));
        byte[] secret = new byte[24];
        new SecureRandom().nextBytes(secret);
        String token = HexFormat.of().formatHex(secret);
        AgentProcess agent = null;
        try {
            Path source = dir.resolve("source.bin");
            Sha256.Result sum = RandomFiles.write(source, bytes);
            FileRef expected = new FileRef(sum.size(), sum.sha256());
            agent = AgentProcess.start(command, Map.of(AgentMain.TOKEN_ENV, token), dir, dir.resolve("agent.log"), Duration.ofMinutes(5));
            long pid = agent.process().pid();
            out.println("agent JVM options: " + String.join(" ", command.subList(1, command.indexOf("-cp"))));
            out.printf("agent at start: %s%n", memory(pid));
            try (AgentChannel channel = AgentChannels.plain(agent.target(), token, dir.resolve("bulk"))) {
                if (warmups > 0) {
                    Files.createDirectories(dir.resolve("staging"));
                    int times = FileWarmup.run(channel, Lane.STREAM, dir.resolve("staging"), warmups);
                    out.printf("warm-up: %d uploads and downloads of %d bytes; agent after: %s%n", times, FileWarmup.FILE_BYTES, memory(pid));
                }
                out.printf("%-9s %9s | %9s %9s | %10s %10s | %9s %9s | %s%n", "transfer", "wall ms", "agent ms", "client ms",
                        "agent MiB", "client MiB", "agent GC", "client GC", "agent memory after (VmRSS, VmHWM peak)");
                Path destination = dir.resolve("download.bin");
                for (Lane lane : List.of(Lane.STREAM, Lane.BULK)) {
                    boolean bulk = lane == Lane.BULK;
                    for (int i = 0; i < n; i++) {
                        row(out, bulk ? "bulk up" : "upload", pid, channel, () -> channel.upload(source, expected, "file.bin", lane, TIMEOUT));
                    }
                    for (int i = 0; i < n; i++) {
                        row(out, bulk ? "bulk down" : "download", pid, channel,
                                () -> channel.download("file.bin", expected, destination, lane, TIMEOUT));
                        Files.delete(destination);
                    }
                }
            }
            // The floor in the same go: the bare stream's download (server and client in this JVM,
            // memory to memory, the same hashing), so its CPU column holds both sides.
            if (bytes <= Integer.MAX_VALUE - 8) {
                byte[] payload = Files.readAllBytes(source);
                try (BareGrpcServer server = BareGrpcServer.start(payload, true)) {
                    for (int i = 0; i < n; i++) {
                        bareRow(out, () -> BareGrpcStream.download(server.blocking(), payload.length, 1 << 20, expected.sha256()));
                    }
                }
            }
        } finally {
            if (agent != null) {
                ProcessTrees.kill(agent.process().toHandle());
            }
            FileTrees.deleteQuietly(dir);
        }
        out.println("ms CPU: /proc/PID/stat utime+stime (10 ms ticks); MiB: heap bytes allocated (ThreadMXBean; the agent's by Info);");
        out.println("GC: collections/ms during the transfer; memory: /proc/PID/status.");
    }

    @FunctionalInterface
    private interface Transfer {
        void run() throws Exception;
    }

    private static void row(PrintStream out, String label, long pid, AgentChannel channel, Transfer transfer) throws Exception {
        long self = ProcessHandle.current().pid();
        AgentInfo agent0 = channel.info(TIMEOUT);
        ProcCounters a0 = ProcCounters.of(pid);
        ProcCounters c0 = ProcCounters.of(self);
        long alloc0 = HarnessCost.allocated();
        long[] gc0 = HarnessCost.gc();
        long start = System.nanoTime();
        transfer.run();
        long wall = System.nanoTime() - start;
        long[] gc1 = HarnessCost.gc();
        long alloc1 = HarnessCost.allocated();
        ProcCounters c1 = ProcCounters.of(self);
        ProcCounters a1 = ProcCounters.of(pid);
        AgentInfo agent1 = channel.info(TIMEOUT);
        out.printf("%-9s %9.1f | %9.0f %9.0f | %10.1f %10.1f | %9s %9s | %s%n", label, wall / 1e6,
                (a1.cpuNs() - a0.cpuNs()) / 1e6, (c1.cpuNs() - c0.cpuNs()) / 1e6,
                (agent1.counters().allocatedBytes() - agent0.counters().allocatedBytes()) / MIB, (alloc1 - alloc0) / MIB,
                (agent1.counters().gcCount() - agent0.counters().gcCount()) + "/" + (agent1.counters().gcTimeNs() - agent0.counters().gcTimeNs()) / 1_000_000 + "ms",
                (gc1[0] - gc0[0]) + "/" + (gc1[1] - gc0[1]) + "ms", memory(pid));
    }

    private static void bareRow(PrintStream out, Transfer transfer) throws Exception {
        ProcCounters c0 = ProcCounters.of(ProcessHandle.current().pid());
        long alloc0 = HarnessCost.allocated();
        long[] gc0 = HarnessCost.gc();
        long start = System.nanoTime();
        transfer.run();
        long wall = System.nanoTime() - start;
        long[] gc1 = HarnessCost.gc();
        long alloc1 = HarnessCost.allocated();
        ProcCounters c1 = ProcCounters.of(ProcessHandle.current().pid());
        out.printf("%-9s %9.1f | %9s %9.0f | %10s %10.1f | %9s %9s |%n", "bare down", wall / 1e6, "-", (c1.cpuNs() - c0.cpuNs()) / 1e6,
                "-", (alloc1 - alloc0) / MIB, "-", (gc1[0] - gc0[0]) + "/" + (gc1[1] - gc0[1]) + "ms");
    }

    /** VmRSS and VmHWM (peak) of a process in MiB, from /proc/PID/status. */
    static String memory(long pid) throws IOException {
        long rss = 0;
        long peak = 0;
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                rss = kib(line);
            } else if (line.startsWith("VmHWM:")) {
                peak = kib(line);
            }
        }
        return String.format("%.0f / %.0f MiB", rss / 1024.0, peak / 1024.0);
    }

    private static long kib(String line) {
        return Long.parseLong(line.substring(line.indexOf(':') + 1).replace("kB", "").strip());
    }
}
