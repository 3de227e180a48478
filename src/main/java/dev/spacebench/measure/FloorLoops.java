package dev.spacebench.measure;

import dev.spacebench.floor.BareGrpcPing;
import dev.spacebench.floor.HostSpawnFloor;
import dev.spacebench.floor.HyperfineFloor;
import dev.spacebench.floor.TimerGranularity;
import dev.spacebench.metric.FloorMetric;
import dev.spacebench.metric.Metric;
import dev.spacebench.plan.FloorPlan;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Measures the bare floor on the host, outside any Space, and reports it as samples:
 * {@code floor.timer} (one sample: the smallest System.nanoTime step seen), {@code floor.spawn.true}
 * and {@code floor.spawn.sh_c} (the agent's own Exec code run in this JVM, spawn to reap),
 * {@code floor.hyperfine.true} and {@code floor.hyperfine.sh_c} (hyperfine's own runs of {@code true}
 * and {@code sh -c true}, where installed) and {@code floor.grpc.noop} (a bare gRPC ping from this
 * JVM to a server process of its own, started as a Space's agent is, on the Space's transport: TCP
 * loopback, or a unix socket). Warm-ups are run
 * and dropped by each floor loop; they are counted in {@link #facts()}.
 */
final class FloorLoops {

    static final int TIMER_READS = 1_000_000;

    private final MeasureListener listener;
    private final Path unixSocketDir;
    private final Map<String, String> facts = new LinkedHashMap<>();

    /** @param unixSocketDir where the bare ping's unix socket goes; null: the bare ping is over TCP loopback */
    FloorLoops(MeasureListener listener, Path unixSocketDir) {
        this.listener = listener;
        this.unixSocketDir = unixSocketDir;
    }

    /** Iterations the floor adds to a plan's progress total. */
    static long iterations(FloorPlan floor) {
        return floor == null || !floor.enabled() ? 0 : 1 + 5L * (floor.n() + floor.warmups());
    }

    /** What the page must know about how the floor was taken (launch mechanism, hyperfine…). */
    Map<String, String> facts() {
        return facts;
    }

    /**
     * An interleaved plan's part of the floor taken before the Space: the timer's step, and the
     * facts the page gives (one untimed spawn tells the launch mechanism). The loops themselves
     * run in blocks with the Space's ({@link Measurement#run}).
     *
     * @return iterations done, for progress (the timer's one)
     */
    long runInterleavedPart(FloorPlan floor, int grpcWarmupCalls, long done, long total) {
        if (floor == null || !floor.enabled()) {
            return done;
        }
        record(FloorMetric.TIMER.id(), new long[] {TimerGranularity.smallestStep(TIMER_READS)});
        listener.progress(new Progress(FloorMetric.TIMER.id(), Phase.MEASURED, 1, 1, ++done, total));
        try {
            HostSpawnFloor.Result once = HostSpawnFloor.run(HostSpawnFloor.TRUE, 1, 0);
            facts.put("host spawn launch mechanism", once.launchMechanism()
                    + (once.matchesAgent() ? " (the agent's too)" : " (the agent uses " + once.agentLaunchMechanism()
                    + ": not like for like)"));
        } catch (IOException e) {
            facts.put("floor", "incomplete: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancelledException();
        }
        facts.put("hyperfine", HyperfineFloor.onPath("hyperfine", System.getenv("PATH")).isPresent()
                ? "hyperfine -N --runs B --warmup W true, and 'sh -c true', one hyperfine per block (B: the block's runs;"
                        + " W: " + floor.warmups() + " before the first block only)"
                : "not measured: hyperfine is not on PATH (Debian: apt-get install hyperfine)");
        facts.put("bare gRPC ping transport", (unixSocketDir == null ? "TCP loopback" : "unix socket (the Space's transport)")
                + ", to a server in a JVM of its own");
        facts.put("floor warm-ups", floor.warmups() + " per floor loop before its first block, run and dropped (the bare gRPC"
                + " ping also " + grpcWarmupCalls + " more, as many as the agent gets, then blocks until neither its client's nor"
                + " its server's JIT compiles, as the agent's)");
        facts.put("floor order", "interleaved with the Space's loops, in blocks in a seeded random order each round"
                + " (samples.csv: block, seq); the Space exists, idle, while the floor runs");
        return done;
    }

    /**
     * @param grpcWarmupCalls extra untimed pings before the bare gRPC ping is timed, as many as the
     *     agent gets before its loops, so that both sides of that comparison are equally warm
     * @return iterations done, for progress
     */
    long run(FloorPlan floor, int grpcWarmupCalls, long done, long total) {
        if (floor == null || !floor.enabled()) {
            return done;
        }
        int n = floor.n();
        int w = floor.warmups();
        record(FloorMetric.TIMER.id(), new long[] {TimerGranularity.smallestStep(TIMER_READS)});
        listener.progress(new Progress(FloorMetric.TIMER.id(), Phase.MEASURED, 1, 1, ++done, total));
        try {
            stopIfCancelled();
            HostSpawnFloor.Result spawnTrue = HostSpawnFloor.run(HostSpawnFloor.TRUE, n, w);
            record(FloorMetric.SPAWN_TRUE.id(), spawnTrue.samplesNs());
            done += n + w;
            listener.progress(new Progress(FloorMetric.SPAWN_TRUE.id(), Phase.MEASURED, n, n, done, total));
            stopIfCancelled();
            HostSpawnFloor.Result spawnShC = HostSpawnFloor.run(HostSpawnFloor.SH_C_TRUE, n, w);
            record(FloorMetric.SPAWN_SH_C.id(), spawnShC.samplesNs());
            done += n + w;
            listener.progress(new Progress(FloorMetric.SPAWN_SH_C.id(), Phase.MEASURED, n, n, done, total));
            facts.put("host spawn launch mechanism", spawnTrue.launchMechanism()
                    + (spawnTrue.matchesAgent() ? " (the agent's too)" : " (the agent uses " + spawnTrue.agentLaunchMechanism()
                    + ": not like for like)"));

            stopIfCancelled();
            HyperfineFloor.Result hyperfine = HyperfineFloor.run(n, w);
            if (hyperfine.available()) {
                record(FloorMetric.HYPERFINE_TRUE.id(), hyperfine.samplesNs());
                facts.put("hyperfine", "hyperfine -N --runs " + n + " --warmup " + w + " true, and 'sh -c true'");
            } else {
                facts.put("hyperfine", "not measured: " + hyperfine.reason());
            }
            done += n + w;
            listener.progress(new Progress(FloorMetric.HYPERFINE_TRUE.id(), Phase.MEASURED, n, n, done, total));
            stopIfCancelled();
            HyperfineFloor.Result hyperfineShC = HyperfineFloor.run(n, w, "sh -c true");
            if (hyperfineShC.available()) {
                record(FloorMetric.HYPERFINE_SH_C.id(), hyperfineShC.samplesNs());
            }
            done += n + w;
            listener.progress(new Progress(FloorMetric.HYPERFINE_SH_C.id(), Phase.MEASURED, n, n, done, total));

            stopIfCancelled();
            record(FloorMetric.GRPC_NOOP.id(), BareGrpcPing.run(n, w + grpcWarmupCalls,
                    unixSocketDir == null ? null : unixSocketDir.resolve("floor-ping.sock")));
            facts.put("bare gRPC ping transport", (unixSocketDir == null ? "TCP loopback" : "unix socket (the Space's transport)")
                    + ", to a server in a JVM of its own");
            done += n + w;
            listener.progress(new Progress(FloorMetric.GRPC_NOOP.id(), Phase.MEASURED, n, n, done, total));
            facts.put("floor warm-ups", w + " per floor loop, run and dropped (the bare gRPC ping also "
                    + grpcWarmupCalls + " more, as many as the agent gets, then blocks until neither its client's nor its server's JIT"
                    + " compiles, as the agent's)");
        } catch (IOException e) {
            facts.put("floor", "incomplete: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancelledException();
        }
        return done;
    }

    private void stopIfCancelled() {
        if (listener.cancelRequested()) {
            throw new CancelledException();
        }
    }

    /** Whether {@code id} is a floor loop an interleaved plan runs in blocks (every floor metric but the timer). */
    static boolean inBlocks(String id) {
        return Metric.isFloor(id) && Metric.parse(id).orElse(null) != FloorMetric.TIMER;
    }

    private void record(String metric, long[] samples) {
        for (int i = 0; i < samples.length; i++) {
            listener.sample(new Sample(metric, i + 1, Phase.MEASURED, samples[i], 0, true, null));
        }
    }
}
