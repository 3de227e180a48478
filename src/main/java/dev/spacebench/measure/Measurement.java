package dev.spacebench.measure;

import dev.spacebench.channel.FileWarmup;
import dev.spacebench.channel.AgentJvm;
import dev.spacebench.channel.Channel;
import dev.spacebench.channel.AgentInfo;
import dev.spacebench.channel.Channel.Operation;
import dev.spacebench.channel.ExecResult;
import dev.spacebench.channel.FileRef;
import dev.spacebench.channel.Lane;
import dev.spacebench.environment.JvmGc;
import dev.spacebench.floor.FloorBlocks;
import dev.spacebench.files.RandomFiles;
import dev.spacebench.files.Sha256;
import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.metric.Metric;
import dev.spacebench.metric.PlanMetrics;
import dev.spacebench.metric.Transfer;
import dev.spacebench.metric.Via;
import dev.spacebench.plan.ExecMetric;
import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.Plan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs a plan's loops through one {@link Channel} to one Space, serially, and reports every
 * sample. A metric the channel cannot do is not run: it is reported to
 * {@link MeasureListener#skipped} with the channel's reason, never as a zero.
 *
 * <p>Each timed region runs from {@code System.nanoTime} before the call to after the host's
 * check of the reply. What it holds is described once, for readers, in
 * {@code templates/text/prose/timed-region-exec.txt} and {@code timed-region-files.txt} (the
 * Method section of every page); change them with the loops below. Outside every region: writing
 * the random source file, and deleting files between iterations.
 */
public final class Measurement {

    /** This many failed iterations in a row end the run: nothing meaningful is being measured any more. */
    public static final int MAX_CONSECUTIVE_FAILURES = 10;
    private static final Duration EXEC_TIMEOUT = Duration.ofSeconds(60);
    /** How long the Ping after a failed iteration may take before the agent counts as gone. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);

    private final Channel channel;
    /** Metrics not run because the channel cannot do them, with its reason, in plan order. */
    private final Map<String, String> skipped = new LinkedHashMap<>();
    private final Path staging;
    private MeasureListener listener;
    private long done;
    private long total;
    /** The metric and error of the last failed iteration, for the run's reason. */
    private String failedMetric;
    private Throwable failure;
    private String failureText;
    /** The agent's collections and their time inside the loops, summed; null until a loop has both ends. */
    private JvmGc gcInLoops;
    /** This (the host's) JVM's collections inside the loops, summed; null until a loop has run. */
    private JvmGc hostGcInLoops;
    /** Untimed warm-up uploads (each with its download) made before the file loops. */
    private int fileWarmupTransfers;
    /** The agent's JIT time in each untimed block after the fixed warm-up ({@link AgentJitSettle}). */
    private List<Long> jitSettleBlocks = List.of();
    /** The agent's JIT time in each untimed block of {@code true} execs after those ({@link AgentJitSettle#runExec}). */
    private List<Long> execJitSettleBlocks = List.of();
    /** Failed iterations in a row: per loop in a sequential run, across the blocks in an interleaved one. */
    private int failuresInARow;
    /** Where an interleaved run's bare gRPC ping listens: null, TCP loopback; else a unix socket in it. */
    private Path floorSocketDir;
    /** The last seq an interleaved sample took (0 before any): it runs on across the run's channels. */
    private long seq;


    /**
     * @param staging an existing host directory for source files and downloads; emptied as it goes
     */
    public Measurement(Channel channel, Path staging, MeasureListener listener) {
        this.channel = channel;
        this.staging = staging;
        this.listener = listener;
    }

    /**
     * Bytes moved that count as one unit of progress: about what this kind of host moves in the
     * time of one exec round trip (1–2 ms), so that a 512 MiB iteration weighs what it takes.
     */
    public static final long BYTES_PER_PROGRESS_UNIT = 256 * 1024;

    /**
     * A plan's work in progress units, warm-ups included: an exec iteration (and a floor loop's
     * iteration) is one unit; a file iteration, one upload plus one download of B bytes, is
     * {@link #fileIterationUnits(long) 1 + 2 × B / 256 KiB}. Progress is done / total of these, so
     * it follows expected time, not the count of iterations (a run with large files otherwise sat
     * at 99.5% for a minute). A concurrency sweep adds {@link ConcurrencySweep#units(Plan)}.
     */
    public static long progressUnits(Plan plan) {
        return channelUnits(plan) + FloorLoops.iterations(plan.floor()) + ConcurrencySweep.units(plan);
    }

    /** As {@link #progressUnits(Plan)} for a run measuring the Space through {@code channels} channels (the loops once each). */
    public static long progressUnits(Plan plan, int channels) {
        return progressUnits(plan) + (long) (channels - 1) * channelUnits(plan);
    }

    /** One channel's loops' progress units: the exec and file iterations, warm-ups included. */
    private static long channelUnits(Plan plan) {
        long exec = (long) plan.exec().metrics().size() * (plan.exec().n() + plan.exec().warmups());
        return exec + plan.files().sizes().stream()
                .mapToLong(s -> (long) (s.n() + plan.files().warmups()) * fileIterationUnits(s.bytes())).sum();
    }

    /**
     * Progress units done before any channel's loops: the floor's (an interleaved plan's floor took
     * only the timer's reading, 1 unit, before the Space; its loops run among the agent's blocks).
     */
    public static long unitsBeforeLoops(Plan plan) {
        return plan.interleaved() && plan.floor() != null && plan.floor().enabled() ? 1 : FloorLoops.iterations(plan.floor());
    }

    /** One file iteration's progress units: 1 + 2 × ⌊bytes / {@link #BYTES_PER_PROGRESS_UNIT}⌋. */
    public static long fileIterationUnits(long bytes) {
        return 1 + 2 * (bytes / BYTES_PER_PROGRESS_UNIT);
    }

    /**
     * Measures the plan's floor on the host (before any Space exists, so none disturbs it).
     *
     * @return facts about how the floor was taken, for the page
     */
    public static Map<String, String> floor(Plan plan, MeasureListener listener) {
        return floor(plan, null, listener);
    }

    /**
     * As {@link #floor(Plan, MeasureListener)}, with the bare ping over a unix socket made in
     * {@code unixSocketDir} (for a Space reached through one); null: over TCP loopback.
     */
    public static Map<String, String> floor(Plan plan, Path unixSocketDir, MeasureListener listener) {
        FloorLoops loops = new FloorLoops(listener, unixSocketDir);
        if (plan.interleaved()) {
            loops.runInterleavedPart(plan.floor(), plan.exec().agentWarmupCalls(), 0, progressUnits(plan));
        } else {
            loops.run(plan.floor(), plan.exec().agentWarmupCalls(), 0, progressUnits(plan));
        }
        return loops.facts();
    }

    /** The lane a file of this size takes in this plan, given whether the Space has a bulk lane. */
    public static Lane laneFor(long bytes, Plan plan, boolean hasBulkLane) {
        return hasBulkLane && bytes >= plan.files().bulkThresholdBytes() ? Lane.BULK : Lane.STREAM;
    }

    /**
     * @throws CancelledException when the listener asks to stop
     * @throws SpaceLostException at the first failed iteration after which the agent does not answer
     *     (gRPC UNAVAILABLE, or a Ping right after it fails), or that met a full disk on the host or in the Space
     * @throws AbortedException after {@link #MAX_CONSECUTIVE_FAILURES} failures in a row
     */
    public void run(Plan plan) {
        run(plan, unitsBeforeLoops(plan), progressUnits(plan));
    }

    /**
     * As {@link #run(Plan)}, progress counted from {@code doneBefore} of {@code total} units (a run
     * measuring several channels runs one Measurement per channel, one after the other).
     *
     * @return the progress units done after these loops
     */
    public long run(Plan plan, long doneBefore, long total) {
        this.total = total;
        this.done = doneBefore;
        runLoops(plan);
        return done;
    }

    /** The stored id of {@code base} measured through this channel: the base's own for the agent, {@code via.<channel>.…} else. */
    private String id(Metric base) {
        return Via.of(base, channel.id()).id();
    }

    private void runLoops(Plan plan) {
        if (!plan.exec().metrics().isEmpty()) {
            warmAgent(plan.exec().agentWarmupCalls(), plan.exec().commands().stream().anyMatch(m -> m != ExecMetric.NOOP));
        }
        if (plan.interleaved()) {
            interleave(plan);
        }
        for (ExecRoundTrip metric : plan.interleaved() ? List.<ExecRoundTrip>of() : PlanMetrics.exec(plan)) {
            ExecMetric command = metric.command();
            Optional<String> cannot = channel.unsupported(command == ExecMetric.NOOP ? Operation.NOOP : Operation.EXEC);
            if (cannot.isPresent()) {
                done += (long) plan.exec().n() + plan.exec().warmups();
                skip(id(metric), cannot.get(), plan.exec().n());
                continue;
            }
            loop(id(metric), plan.exec().warmups(), plan.exec().n(), 1, (phase, i) -> execOnce(command, phase, i));
        }
        Optional<String> noFiles = channel.unsupported(Operation.FILES);
        if (noFiles.isPresent()) {
            for (FileSize size : plan.files().sizes()) {
                done += (long) (size.n() + plan.files().warmups()) * fileIterationUnits(size.bytes());
                for (Transfer transfer : PlanMetrics.transfers(size.bytes())) {
                    skip(id(transfer), noFiles.get(), size.n());
                }
            }
            return;
        }
        Integer agentWarmup = plan.exec().agentWarmupCalls();
        if (agentWarmup != null && agentWarmup > 0) {
            warmFilePaths(plan);
        }
        for (FileSize size : plan.files().sizes()) {
            Lane lane = laneFor(size.bytes(), plan, channel.hasBulkLane());
            loop(id(Transfer.upload(size.bytes())), plan.files().warmups(), size.n(), fileIterationUnits(size.bytes()),
                    (phase, i) -> fileOnce(size.bytes(), lane, phase, i));
        }
    }

    /** Reports {@code metric} skipped, and progress with its units (added to {@code done} by the caller) as done. */
    private void skip(String metric, String reason, int n) {
        skipped.put(metric, reason);
        listener.skipped(metric, reason);
        listener.progress(new Progress(metric, Phase.MEASURED, n, n, done, total));
    }

    /**
     * Metrics of the plan this channel could not do, each with the channel's reason, in plan order
     * (empty when it ran them all).
     */
    public Map<String, String> skipped() {
        return Map.copyOf(skipped);
    }

    /**
     * An interleaved run's samples here take seq from {@code last} + 1 on: a run through several
     * channels hands each channel's {@link #lastSeq()} to the next, so seq is the sample's place in
     * the whole run.
     *
     * @return this
     */
    public Measurement seqAfter(long last) {
        this.seq = last;
        return this;
    }

    /** The last seq an interleaved sample took here; the {@link #seqAfter} given when none did. */
    public long lastSeq() {
        return seq;
    }

    /**
     * For an interleaved plan's bare gRPC ping: over a unix socket made in {@code dir} (a Space reached
     * through one), as {@link #floor(Plan, Path, MeasureListener)}; null (the default) over TCP loopback.
     *
     * @return this
     */
    public Measurement floorSocketDir(Path dir) {
        this.floorSocketDir = dir;
        return this;
    }

    /**
     * An interleaved plan's exec metrics and floor loops in {@link BlockSchedule}'s order, each
     * sample tagged with its block and its place in the run. Each exec block is a loop of its own as
     * in a sequential run (the agent's full collection before it); the JVM-settling wait comes only
     * after a series' warm-ups, before its first block. A floor loop that fails to run stops, with
     * the reason in the floor facts' place (the run goes on, as a sequential floor's does).
     */
    private void interleave(Plan plan) {
        BlockSchedule schedule = BlockSchedule.of(plan);
        java.util.Map<String, ExecMetric> exec = new java.util.HashMap<>();
        for (String name : plan.exec().metrics()) {
            ExecMetric metric = ExecMetric.fromWireName(name).orElseThrow();
            Optional<String> cannot = channel.unsupported(metric == ExecMetric.NOOP ? Operation.NOOP : Operation.EXEC);
            if (cannot.isPresent()) {
                done += (long) plan.exec().n() + plan.exec().warmups();
                skip(id(ExecRoundTrip.of(metric)), cannot.get(), plan.exec().n());
            } else {
                exec.put(ExecRoundTrip.of(metric).id(), metric);
            }
        }
        MeasureListener outer = listener;
        BlockTags tags = new BlockTags(outer);
        listener = tags;
        java.util.Map<String, dev.spacebench.floor.FloorBlocks.Loop> floors = new java.util.HashMap<>();
        failuresInARow = 0;
        try {
            for (BlockSchedule.Slot slot : schedule.slots()) {
                tags.block = slot.block();
                ExecMetric metric = exec.get(slot.series());
                if (metric != null) {
                    AgentInfo settled = collectGarbage();
                    JvmGc hostBefore = JvmGc.sinceStart();
                    try {
                        runLoop(id(ExecRoundTrip.of(metric)), slot.warmups(), slot.firstIteration(), slot.count(), plan.exec().n(), 1,
                                (phase, i) -> execOnce(metric, phase, i), slot.block() == 1);
                    } finally {
                        hostGcInLoops = JvmGc.addSpan(hostGcInLoops, hostBefore, JvmGc.sinceStart());
                        countGc(settled);
                    }
                } else if (FloorLoops.inBlocks(slot.series()) && Via.AGENT.equals(channel.id())) {
                    // The floor's blocks run once, among the agent's (a run through more channels counts them once).
                    floorBlock(slot, plan, floors);
                }
            }
        } finally {
            listener = outer;
            for (var loop : floors.values()) {
                try {
                    loop.close();
                } catch (IOException | RuntimeException e) {
                    // a floor server that will not stop is killed with the app's process tree; nothing to measure lost
                }
            }
        }
    }

    private void floorBlock(BlockSchedule.Slot slot, Plan plan, java.util.Map<String, dev.spacebench.floor.FloorBlocks.Loop> floors) {
        if (listener.cancelRequested()) {
            throw new CancelledException();
        }
        String id = slot.series();
        boolean ping = id.equals(dev.spacebench.metric.FloorMetric.GRPC_NOOP.id());
        int warmups = slot.warmups() + (ping && slot.block() == 1 ? plan.exec().agentWarmupCalls() : 0);
        long[] ns;
        try {
            if (slot.block() == 1) {
                floors.put(id, FloorBlocks.open(id, floorSocketDir));
            }
            var loop = floors.get(id);
            ns = loop == null ? new long[0] : loop.block(slot.count(), warmups);
        } catch (IOException | RuntimeException e) {
            // As a sequential floor: the loop stops, the run goes on; its figures hold the blocks it finished.
            var loop = floors.remove(id);
            if (loop != null) {
                try {
                    loop.close();
                } catch (IOException | RuntimeException ignored) {
                    // gone already
                }
            }
            ns = new long[0];
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancelledException();
        }
        for (int i = 0; i < ns.length; i++) {
            listener.sample(new Sample(id, slot.firstIteration() + i, Phase.MEASURED, ns[i], 0, true, null));
        }
        done += slot.count() + slot.warmups();
        listener.progress(new Progress(id, Phase.MEASURED, slot.firstIteration() + slot.count() - 1, plan.floor().n(), done, total));
    }

    /** Tags each sample with the block being run and its place in the interleaved part; passes everything else on. */
    private final class BlockTags implements MeasureListener {
        private final MeasureListener to;
        private int block;

        BlockTags(MeasureListener to) {
            this.to = to;
        }

        @Override
        public void sample(Sample sample) {
            to.sample(sample.inBlock(block, ++Measurement.this.seq));
        }

        @Override
        public void beforeMeasured(String metric) {
            to.beforeMeasured(metric);
        }

        @Override
        public void skipped(String metric, String reason) {
            to.skipped(metric, reason);
        }

        @Override
        public void progress(Progress progress) {
            to.progress(progress);
        }

        @Override
        public boolean cancelRequested() {
            return to.cancelRequested();
        }

        @Override
        public void sweepWall(String metric, long ns) {
            to.sweepWall(metric, ns);
        }
    }

    /**
     * Untimed calls that let a fresh agent JVM compile its serving path before any loop, warm-up
     * included, is measured: {@code calls} no-op pings, then a tenth as many {@code true} execs.
     * Then more no-op pings until the agent's JIT settles ({@link AgentJitSettle}), and when the plan
     * spawns commands, more {@code true} execs until it settles for those too.
     * A failure here is not counted: the loops that follow meet the same agent and count theirs.
     * A channel that ends in no agent JVM gets the fixed calls it can do (they warm this JVM's side
     * of it, and whatever serves the far end), without the JIT-settle blocks.
     */
    private void warmAgent(int calls, boolean spawns) {
        boolean noop = channel.unsupported(Operation.NOOP).isEmpty();
        boolean exec = channel.unsupported(Operation.EXEC).isEmpty();
        Optional<AgentJvm> jvm = channel.agentJvm();
        try {
            for (int i = 0; noop && i < calls; i++) {
                if (i % 250 == 0 && listener.cancelRequested()) {
                    throw new CancelledException();
                }
                channel.noop(EXEC_TIMEOUT);
            }
            for (int i = 0; exec && i < calls / 10; i++) {
                channel.exec(ExecMetric.TRUE.argv(), EXEC_TIMEOUT);
            }
            if (calls > 0 && jvm.isPresent()) {
                if (noop) {
                    jitSettleBlocks = AgentJitSettle.run(channel, jvm.get(), AgentJitSettle.blockCalls(calls), EXEC_TIMEOUT,
                            listener::cancelRequested);
                }
                if (spawns && exec) {
                    execJitSettleBlocks = AgentJitSettle.runExec(channel, jvm.get(), AgentJitSettle.execBlockCalls(calls), EXEC_TIMEOUT,
                            listener::cancelRequested);
                }
            }
        } catch (CancelledException e) {
            throw e;
        } catch (RuntimeException e) {
            // the measured loops will show it
        }
    }

    /** {@link FileWarmup} once per lane the file loops use, as many transfers as {@link FileWarmup#times} gives for the lane. */
    private void warmFilePaths(Plan plan) {
        java.util.Map<Lane, Long> bytesByLane = new java.util.LinkedHashMap<>();
        for (FileSize size : plan.files().sizes()) {
            long transfers = (long) size.n() + plan.files().warmups();
            // Plan limits (1 GiB, n 1,000,000) keep this far from overflowing.
            bytesByLane.merge(laneFor(size.bytes(), plan, channel.hasBulkLane()), size.bytes() * transfers, Long::sum);
        }
        for (var lane : bytesByLane.entrySet()) {
            if (listener.cancelRequested()) {
                throw new CancelledException();
            }
            fileWarmupTransfers += FileWarmup.run(channel, lane.getKey(), staging, FileWarmup.times(lane.getValue()));
        }
    }

    private interface Iteration {
        /** @return true when the iteration succeeded */
        boolean run(Phase phase, int iteration);
    }

    /** @param units progress units each iteration counts for */
    private void loop(String metric, int warmups, int n, long units, Iteration iteration) {
        AgentInfo settled = collectGarbage();
        // Read outside the loop, after the agent's asked-for collection (the in-process agent of the tests shares this JVM).
        JvmGc hostBefore = JvmGc.sinceStart();
        try {
            runLoop(metric, warmups, n, units, iteration);
        } finally {
            hostGcInLoops = JvmGc.addSpan(hostGcInLoops, hostBefore, JvmGc.sinceStart());
            countGc(settled);
        }
    }

    /**
     * A full collection in the agent before a loop, so that its young generation starts empty and
     * a loop of up to (young generation ÷ allocation per round trip) round trips meets no GC pause
     * (about 1,400 exec round trips with the agent's flags, {@code AgentLauncher#jvmOptions}).
     *
     * @return the agent's counts after it; null if the agent did not answer (the loop will say why),
     *     or the channel ends in no agent JVM
     */
    private AgentInfo collectGarbage() {
        Optional<AgentJvm> jvm = channel.agentJvm();
        if (jvm.isEmpty()) {
            return null;
        }
        try {
            return jvm.get().collectGarbage(EXEC_TIMEOUT);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private void countGc(AgentInfo settled) {
        if (settled == null) {
            return;
        }
        try {
            AgentInfo end = channel.agentJvm().orElseThrow().info(PROBE_TIMEOUT);
            gcInLoops = JvmGc.addSpan(gcInLoops, new JvmGc(settled.counters().gcCount(), settled.counters().gcTimeNs()), new JvmGc(end.counters().gcCount(), end.counters().gcTimeNs()));
        } catch (RuntimeException e) {
            // the agent is gone; the run ends with that reason
        }
    }

    /**
     * The agent JVM's garbage collections that ran while a loop ran, summed over the loops so far
     * (the full collection asked for before each loop, outside it, not counted); null when no loop
     * could be counted.
     */
    public JvmGc agentGcInLoops() {
        return gcInLoops;
    }

    /**
     * The collections of the JVM this runs in (the host's, which times the round trips) while the
     * loops ran, summed over them; null when no loop ran. A JVM-wide count: another run's work in
     * the same app counts too.
     */
    public JvmGc hostGcInLoops() {
        return hostGcInLoops;
    }

    /**
     * The agent's JIT time, in ns, in each block of {@link AgentJitSettle#blockCalls(int)} untimed
     * pings made after the fixed warm-up until it settled; empty without agent warm-up.
     */
    public List<Long> agentJitSettleBlocks() {
        return jitSettleBlocks;
    }

    /**
     * The agent's JIT time, in ns, in each block of {@link AgentJitSettle#execBlockCalls(int)}
     * untimed {@code true} execs made after the ping blocks until it settled; empty without agent
     * warm-up or when the plan's exec metrics spawn nothing (no-op only).
     */
    public List<Long> agentExecJitSettleBlocks() {
        return execJitSettleBlocks;
    }

    /** Untimed warm-up uploads, each with its download, made before the file loops ({@link FileWarmup}). */
    public int fileWarmupTransfers() {
        return fileWarmupTransfers;
    }

    private void runLoop(String metric, int warmups, int n, long units, Iteration iteration) {
        failuresInARow = 0;
        runLoop(metric, warmups, 1, n, n, units, iteration, true);
    }

    /**
     * Warm-ups, then measured iterations {@code first} .. {@code first + n − 1} of a series of
     * {@code seriesN}; {@code settle}: let this JVM settle before the measured part.
     */
    private void runLoop(String metric, int warmups, int first, int n, int seriesN, long units, Iteration iteration, boolean settle) {
        for (Phase phase : Phase.values()) {
            int from = phase == Phase.WARMUP ? 1 : first;
            int to = phase == Phase.WARMUP ? warmups : first + n - 1;
            int count = phase == Phase.WARMUP ? warmups : seriesN;
            if (phase == Phase.MEASURED && settle) {
                listener.beforeMeasured(metric);
            }
            for (int i = from; i <= to; i++) {
                if (listener.cancelRequested()) {
                    throw new CancelledException();
                }
                failedMetric = metric;
                failure = null;
                failureText = null;
                boolean ok = iteration.run(phase, i);
                failuresInARow = ok ? 0 : failuresInARow + 1;
                done += units;
                listener.progress(new Progress(metric, phase, i, count, done, total));
                if (!ok) {
                    endIfSpaceLost(where(failedMetric, phase, i));
                }
                if (failuresInARow >= MAX_CONSECUTIVE_FAILURES) {
                    throw new AbortedException(MAX_CONSECUTIVE_FAILURES + " failures in a row in " + metric
                            + " (the Space still answers); the last: " + failureText, failure);
                }
            }
        }
    }

    /** "file.upload.16MiB iteration 3", "exec.true warm-up 2". */
    private static String where(String metric, Phase phase, int iteration) {
        return metric + (phase == Phase.WARMUP ? " warm-up " : " iteration ") + iteration;
    }

    /**
     * Ends the run when the failed iteration shows the Space is gone or a disk is full; otherwise
     * the failure is only counted. A probe ({@link #probe}) decides when the error itself does not tell.
     */
    private void endIfSpaceLost(String where) {
        if (failure instanceof RuntimeException own && FatalFailures.database(own)) {
            // The run's bookkeeping failed, not the Space: the run ends with that (RunExecution names it).
            throw own;
        }
        String reason = FatalFailures.reason(failure, staging, where);
        if (reason == null) {
            try {
                probe();
            } catch (RuntimeException e) {
                reason = FatalFailures.agentGone(e, where, failureText);
            }
        }
        if (reason != null) {
            throw new SpaceLostException(reason, failure);
        }
    }

    /** Whether the Space still answers: the channel's no-op, or where it has none, an exec of {@code true} that must exit 0. */
    private void probe() {
        if (channel.unsupported(Operation.NOOP).isEmpty()) {
            channel.noop(PROBE_TIMEOUT);
            return;
        }
        ExecResult result = channel.exec(ExecMetric.TRUE.argv(), PROBE_TIMEOUT);
        if (result.exitCode() != 0) {
            throw new IllegalStateException(channel.id() + ": true exited with " + result.exitCode());
        }
    }

    private void failed(String metric, Throwable cause, String text) {
        failedMetric = metric;
        failure = cause;
        failureText = text;
    }

    private boolean execOnce(ExecMetric metric, Phase phase, int iteration) {
        String id = id(ExecRoundTrip.of(metric));
        Long agentNs = null;
        long start = System.nanoTime();
        try {
            if (metric == ExecMetric.NOOP) {
                channel.noop(EXEC_TIMEOUT);
            } else {
                ExecResult result = channel.exec(metric.argv(), EXEC_TIMEOUT);
                agentNs = agentTime(result.agentDurationNs());
                if (result.exitCode() != 0 || result.timedOut()) {
                    long ns = System.nanoTime() - start;
                    String why = (result.timedOut() ? "timed out" : "exit code " + result.exitCode())
                            + stderrHead(result.stderr());
                    listener.sample(new Sample(id, iteration, phase, ns, 0, false, why));
                    failed(id, null, why);
                    return false;
                }
            }
            long ns = System.nanoTime() - start;
            listener.sample(new Sample(id, iteration, phase, ns, 0, true, null, agentNs));
            return true;
        } catch (RuntimeException e) {
            long ns = System.nanoTime() - start;
            listener.sample(new Sample(id, iteration, phase, ns, 0, false, e.getMessage()));
            failed(id, e, e.getMessage());
            return false;
        }
    }

    private boolean fileOnce(long bytes, Lane lane, Phase phase, int iteration) {
        String label = FileSize.label(bytes);
        String tag = label + "-" + phase.wireName() + "-" + iteration;
        Path source = staging.resolve("source-" + tag);
        Path received = staging.resolve("received-" + tag);
        String remote = "files/" + tag;
        Duration timeout = Duration.ofSeconds(60 + bytes / (2L << 20));
        String upload = id(Transfer.upload(bytes));
        try {
            Sha256.Result written;
            try {
                written = RandomFiles.write(source, bytes);
            } catch (IOException e) {
                String reason = FatalFailures.reason(e, staging, where(upload, phase, iteration) + " (writing the random source file)");
                if (reason != null) {
                    throw new SpaceLostException(reason, e);
                }
                throw e;
            }
            FileRef expected = new FileRef(written.size(), written.sha256());

            long start = System.nanoTime();
            try {
                channel.upload(source, expected, remote, lane, timeout);
                long ns = System.nanoTime() - start;
                listener.sample(new Sample(upload, iteration, phase, ns, bytes, true, null, agentTime(channel.lastTransferFarNs())));
            } catch (IOException | RuntimeException e) {
                listener.sample(new Sample(upload, iteration, phase, System.nanoTime() - start, bytes, false, e.getMessage()));
                failed(upload, e, e.getMessage());
                return false;
            }

            String download = id(Transfer.download(bytes));
            start = System.nanoTime();
            try {
                channel.download(remote, expected, received, lane, timeout);
                long ns = System.nanoTime() - start;
                listener.sample(new Sample(download, iteration, phase, ns, bytes, true, null, agentTime(channel.lastTransferFarNs())));
                return true;
            } catch (IOException | RuntimeException e) {
                listener.sample(new Sample(download, iteration, phase, System.nanoTime() - start, bytes, false, e.getMessage()));
                failed(download, e, e.getMessage());
                return false;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the random source file " + source, e);
        } finally {
            cleanUp(source, received, remote);
        }
    }

    /** The far side's reported time, or null when it reported none (0: an older agent, or a channel with no such report). */
    private static Long agentTime(long ns) {
        return ns > 0 ? ns : null;
    }

    private void cleanUp(Path source, Path received, String remote) {
        try {
            Files.deleteIfExists(source);
            Files.deleteIfExists(received);
        } catch (IOException e) {
            throw new UncheckedIOException("could not remove staging files", e);
        }
        try {
            channel.delete(remote, EXEC_TIMEOUT);
        } catch (RuntimeException ignored) {
            // If the agent is gone the next iteration fails and is counted; the Space's
            // directories are removed with it either way.
        }
    }

    private static String stderrHead(byte[] stderr) {
        if (stderr.length == 0) {
            return "";
        }
        String text = new String(stderr, 0, Math.min(stderr.length, 200), StandardCharsets.UTF_8).strip();
        return "; stderr: " + text;
    }
}
