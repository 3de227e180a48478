package dev.spacebench.floor;

import dev.spacebench.agent.AgentMain;
import dev.spacebench.agent.v1.AgentGrpc;
import dev.spacebench.channel.AgentChannel;
import dev.spacebench.channel.AgentChannels;
import dev.spacebench.channel.AgentInfo;
import dev.spacebench.plan.ExecMetric;
import dev.spacebench.space.FileTrees;
import dev.spacebench.space.local.AgentArchive;
import dev.spacebench.space.local.AgentLauncher;
import dev.spacebench.space.local.AgentProcess;
import dev.spacebench.space.local.ProcessTrees;
import dev.spacebench.stats.Percentiles;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What the harness itself costs per round trip, in measures a loaded host does not bend: CPU time
 * of the agent, of the commands it ran and of the client; context switches and which threads were
 * woken; heap bytes allocated; garbage collections in the loop. Also the agent's start: wall time,
 * CPU time and classes loaded until it printed its readiness line.
 *
 * <p>It starts a real agent the way a process Space does ({@link AgentLauncher}'s command, plus any
 * extra JVM options given, for A/B of flags), talks to it through the app's {@link AgentChannel}
 * over TCP loopback ({@link AgentChannels#plain}), and then measures the floors in this JVM: a bare
 * {@link ProcessBuilder} loop (stdin from /dev/null, both pipes read on the calling thread, then
 * waitFor: the least a JVM can do to run a command and get its output) and a bare gRPC ping
 * (client and server both in this JVM, so its "client" figures are both sides).
 *
 * <p>The agent starts with its class-data archive ({@link AgentArchive}, made first if missing), as
 * the app's agents do; to compare without it, give the JDK's own archive as an extra option
 * ({@code -XX:SharedArchiveFile=$JAVA_HOME/lib/server/classes.jsa}: the last one given wins).
 *
 * <p>Printed, not asserted: a benchmark tool ({@code spacebench.jar floor cost N WARMUPS [JVM option…]}).
 */
public final class HarnessCost {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final PrintStream out;
    private final int n;
    private final int warmups;

    private HarnessCost(PrintStream out, int n, int warmups) {
        this.out = out;
        this.n = n;
        this.warmups = warmups;
    }

    /**
     * @param n measured round trips per loop, at least 1 (a few thousand keep the clock-tick
     *     resolution of CPU times below a few µs per round trip)
     * @param warmups untimed pings before the loops (a tenth as many {@code true} execs follow, as a
     *     run's agent warm-up does), and a tenth as many untimed round trips before each loop
     * @param agentOptions extra JVM options for the agent, after the launcher's own (later wins)
     * @throws IOException if the agent cannot be started or /proc cannot be read
     */
    public static void run(PrintStream out, int n, int warmups, List<String> agentOptions) throws Exception {
        if (n < 1 || warmups < 0) {
            throw new IllegalArgumentException("N must be at least 1 and WARMUPS at least 0, were " + n + " and " + warmups);
        }
        new HarnessCost(out, n, warmups).measure(agentOptions);
    }

    private void measure(List<String> agentOptions) throws Exception {
        // As the app does at its start: the agent's class-data archive, made once per class path.
        AgentArchive.ensure();
        Path dir = Files.createTempDirectory("spacebench-cost");
        Path classLog = dir.resolve("classes.log");
        List<String> command = new ArrayList<>(AgentLauncher.command());
        // Just before the class path, so that they come after the launcher's own and win.
        command.addAll(command.indexOf("-cp"), agentOptions);
        command.add(1, "-Xlog:class+load=info:file=" + classLog);
        command.addAll(List.of("--work-dir", dir.resolve("work").toString(), "--bulk-dir", dir.resolve("bulk").toString(),
                "--listen", "127.0.0.1:0", "--exit-on-stdin-eof"));
        byte[] secret = new byte[24];
        new SecureRandom().nextBytes(secret);
        String token = HexFormat.of().formatHex(secret);
        AgentProcess agent = null;
        AgentChannel channel = null;
        try {
            long startedAt = System.nanoTime();
            agent = AgentProcess.start(command, Map.of(AgentMain.TOKEN_ENV, token), dir, dir.resolve("agent.log"), Duration.ofMinutes(5));
            long readyNs = System.nanoTime() - startedAt;
            long pid = agent.process().pid();
            ProcCounters atReady = ProcCounters.of(pid);
            List<String> loaded;
            try (var lines = Files.lines(classLog)) {
                loaded = lines.filter(l -> l.contains("class,load")).toList();
            }
            long shared = loaded.stream().filter(l -> l.contains("shared objects file")).count();
            out.printf("agent start: %.0f ms wall, %.0f ms CPU, %d classes loaded (%d of them from class-data archives) until READY%n",
                    readyNs / 1e6, atReady.cpuNs() / 1e6, loaded.size(), shared);
            out.println("agent JVM options: " + command.subList(1, command.indexOf("-cp")).stream()
                    .filter(o -> !o.startsWith("-Xlog:class+load")).collect(Collectors.joining(" ")));

            channel = AgentChannels.plain(agent.target(), token);
            AgentChannel agentChannel = channel;
            for (int i = 0; i < warmups; i++) {
                channel.ping(TIMEOUT);
            }
            for (int i = 0; i < warmups / 10; i++) {
                channel.exec(ExecMetric.TRUE.argv(), TIMEOUT);
            }
            header();
            loop("exec.noop", pid, channel, () -> agentChannel.ping(TIMEOUT));
            loop("exec.true", pid, channel, () -> check(agentChannel.exec(ExecMetric.TRUE.argv(), TIMEOUT).exitCode()));
            loop("exec.sh_c", pid, channel, () -> check(agentChannel.exec(ExecMetric.SH_C.argv(), TIMEOUT).exitCode()));
        } finally {
            if (channel != null) {
                channel.close();
            }
            if (agent != null) {
                ProcessTrees.kill(agent.process().toHandle());
            }
            FileTrees.deleteQuietly(dir);
        }
        File devNull = new File("/dev/null");
        loop("bare spawn true", 0, null, () -> bareSpawn(ExecMetric.TRUE.argv(), devNull));
        loop("bare spawn sh -c", 0, null, () -> bareSpawn(ExecMetric.SH_C.argv(), devNull));
        try (BareGrpcServer server = BareGrpcServer.start(new byte[0])) {
            AgentGrpc.AgentBlockingStub stub = server.blocking();
            for (int i = 0; i < warmups; i++) {
                BareGrpcPing.ping(stub);
            }
            loop("bare gRPC ping", 0, null, () -> BareGrpcPing.ping(stub));
        }
        out.println("CPU: /proc/PID/stat utime+stime (10 ms ticks); children: the commands the agent (or this JVM) waited for;");
        out.println("switches: /proc/PID/task/*/status, voluntary/involuntary; B: heap bytes allocated (ThreadMXBean);");
        out.println("bare rows run in the measuring JVM: their client figures hold the server (bare ping) and the reaper too.");
    }

    private static void check(int exitCode) {
        if (exitCode != 0) {
            throw new IllegalStateException("exit code " + exitCode);
        }
    }

    /** Runs argv as a JVM does at the least: no extra thread of ours, both pipes read here, then waitFor. */
    private static void bareSpawn(List<String> argv, File devNull) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(devNull)).start();
        process.getInputStream().readAllBytes();
        process.getErrorStream().readAllBytes();
        check(process.waitFor());
    }

    @FunctionalInterface
    private interface Call {
        void run() throws Exception;
    }

    private void header() {
        out.printf("%-18s %6s %9s | %9s %9s %9s | %11s %11s | %9s %9s | %9s %9s%n", "per round trip", "n", "p50 µs",
                "agent µs", "cmds µs", "client µs", "agent sw", "client sw", "agent B", "client B", "agent GC", "client GC");
    }

    private void loop(String label, long agentPid, AgentChannel channel, Call call) throws Exception {
        for (int i = 0; i < warmups / 10; i++) {
            call.run();
        }
        long self = ProcessHandle.current().pid();
        // As a run's loops: a full collection in the agent first (Measurement), outside the counts.
        AgentInfo agentBefore = channel == null ? null : channel.collectGarbage(TIMEOUT);
        ProcCounters agent0 = agentPid == 0 ? null : ProcCounters.of(agentPid);
        long[] gc0 = gc();
        long alloc0 = allocated();
        ProcCounters client0 = ProcCounters.of(self);
        long[] samples = new long[n];
        for (int i = 0; i < n; i++) {
            long start = System.nanoTime();
            call.run();
            samples[i] = System.nanoTime() - start;
        }
        ProcCounters client1 = ProcCounters.of(self);
        long alloc1 = allocated();
        long[] gc1 = gc();
        ProcCounters agent1 = agentPid == 0 ? null : ProcCounters.of(agentPid);
        AgentInfo agentAfter = channel == null ? null : channel.info(TIMEOUT);
        Arrays.sort(samples);

        Map<String, long[]> clientThreads = client1.switchesSince(client0);
        Map<String, long[]> agentThreads = agent1 == null ? Map.of() : agent1.switchesSince(agent0);
        long childrenNs = (agent1 == null ? client1.childrenCpuNs() - client0.childrenCpuNs() : agent1.childrenCpuNs() - agent0.childrenCpuNs());
        out.printf("%-18s %6d %9.1f | %9s %9.1f %9.1f | %11s %11s | %9s %9.0f | %9s %9s%n", label, n,
                Percentiles.of(samples, 50) / 1e3,
                agent1 == null ? "-" : String.format("%.1f", (agent1.cpuNs() - agent0.cpuNs()) / 1e3 / n),
                childrenNs / 1e3 / n,
                (client1.cpuNs() - client0.cpuNs()) / 1e3 / n,
                agent1 == null ? "-" : switches(agentThreads),
                switches(clientThreads),
                agentAfter == null ? "-" : String.format("%.0f", (agentAfter.counters().allocatedBytes() - agentBefore.counters().allocatedBytes()) / (double) n),
                (alloc1 - alloc0) / (double) n,
                agentAfter == null ? "-" : gcText(agentAfter.counters().gcCount() - agentBefore.counters().gcCount(), (agentAfter.counters().gcTimeNs() - agentBefore.counters().gcTimeNs()) / 1_000_000),
                gcText(gc1[0] - gc0[0], gc1[1] - gc0[1]));
        if (agent1 != null) {
            out.println("    agent threads woken per round trip: " + woken(agentThreads));
        }
        out.println("    " + (agent1 == null ? "this JVM's" : "client") + " threads woken per round trip: " + woken(clientThreads));
    }

    private String switches(Map<String, long[]> threads) {
        long voluntary = threads.values().stream().mapToLong(s -> s[0]).sum();
        long involuntary = threads.values().stream().mapToLong(s -> s[1]).sum();
        return String.format("%.2f/%.2f", voluntary / (double) n, involuntary / (double) n);
    }

    /** Thread names (digits folded) with their voluntary switches per round trip, those at 0.05 or more. */
    private String woken(Map<String, long[]> threads) {
        Map<String, long[]> sorted = new TreeMap<>(threads);
        String text = sorted.entrySet().stream()
                .filter(e -> e.getValue()[0] >= 0.05 * n)
                .map(e -> String.format("%s %.2f", e.getKey(), e.getValue()[0] / (double) n))
                .collect(Collectors.joining(", "));
        return text.isEmpty() ? "(none)" : text;
    }

    private static String gcText(long count, long ms) {
        return count + "/" + ms + "ms";
    }

    /** This JVM's collections so far and their time in ms: {count, ms}. */
    static long[] gc() {
        long count = 0;
        long ms = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
            ms += Math.max(0, gc.getCollectionTime());
        }
        return new long[] {count, ms};
    }

    /** Heap bytes allocated by every live thread of this JVM so far (0 where the JVM cannot count them). */
    static long allocated() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads
                && threads.isThreadAllocatedMemorySupported()) {
            return Arrays.stream(threads.getThreadAllocatedBytes(threads.getAllThreadIds())).filter(b -> b > 0).sum();
        }
        return 0;
    }
}
