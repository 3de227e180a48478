package dev.spacebench.measure;

import dev.spacebench.channel.FileWarmup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spacebench.agent.InProcessAgent;
import dev.spacebench.agent.v1.AgentGrpc;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.MethodDescriptor;
import java.util.concurrent.atomic.AtomicInteger;
import dev.spacebench.channel.AgentChannel;
import dev.spacebench.plan.ExecPlan;
import dev.spacebench.plan.FilePlan;
import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.FloorPlan;
import dev.spacebench.plan.Plan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The timed loops against the real agent service (in process: real files, real processes, no
 * socket). An upload fails for real when the agent's {@code files} directory is a plain file.
 */
class MeasurementTest {

    private static final int CHUNK = 64 * 1024;

    @TempDir
    Path dir;

    /** Records what the loops report; cancels when {@code cancel} says so. */
    private static final class Recorder implements MeasureListener {
        final List<Sample> samples = new ArrayList<>();
        final List<Progress> progress = new ArrayList<>();
        Predicate<Recorder> cancel = r -> false;
        Runnable afterSample = () -> {};

        @Override
        public void sample(Sample sample) {
            samples.add(sample);
            afterSample.run();
        }

        @Override
        public void progress(Progress p) {
            progress.add(p);
        }

        @Override
        public boolean cancelRequested() {
            return cancel.test(this);
        }
    }

    private static Plan execOnly(String metric, int n, int warmups) {
        return new Plan(new ExecPlan(List.of(metric), n, warmups, 0), new FilePlan(List.of(), 0, Long.MAX_VALUE, CHUNK),
                new FloorPlan(false, 1, 0));
    }

    private static Plan filesOnly(long bytes, int n) {
        return new Plan(new ExecPlan(List.of(), 1, 0, 0), new FilePlan(List.of(new FileSize(bytes, n)), 0, Long.MAX_VALUE, CHUNK),
                new FloorPlan(false, 1, 0));
    }

    private Measurement measurement(AgentChannel channel, Recorder recorder) throws IOException {
        return new Measurement(channel, Files.createDirectories(dir.resolve("staging")), recorder);
    }

    @Test
    void eachMetricsMeasuredLoopIsAnnouncedOnceAfterItsWarmUpsAndBeforeItsFirstMeasuredSample() throws Exception {
        List<String> events = new ArrayList<>();
        MeasureListener listener = new MeasureListener() {
            @Override
            public void sample(Sample s) {
                events.add(s.metric() + " " + s.phase().wireName() + " " + s.iteration());
            }

            @Override
            public void progress(Progress p) {
            }

            @Override
            public boolean cancelRequested() {
                return false;
            }

            @Override
            public void beforeMeasured(String metric) {
                events.add("before measured " + metric);
            }
        };
        // Two exec metrics with 2 warm-ups each, and a file size without warm-ups.
        Plan plan = new Plan(new ExecPlan(List.of("noop", "true"), 2, 2, 0), new FilePlan(List.of(new FileSize(1000L, 1)), 0, Long.MAX_VALUE, CHUNK),
                new FloorPlan(false, 1, 0));
        try (InProcessAgent agent = new InProcessAgent(dir.resolve("agent")); AgentChannel channel = agent.channel(InProcessAgent.TOKEN, CHUNK)) {
            new Measurement(channel, Files.createDirectories(dir.resolve("staging")), listener).run(plan);
        }
        assertThat(events).containsExactly(
                "exec.noop warmup 1", "exec.noop warmup 2", "before measured exec.noop", "exec.noop measured 1", "exec.noop measured 2",
                "exec.true warmup 1", "exec.true warmup 2", "before measured exec.true", "exec.true measured 1", "exec.true measured 2",
                "before measured file.upload.1000B", "file.upload.1000B measured 1", "file.download.1000B measured 1");
    }

    @Test
    void eachLoopStartsAfterAFullCollectionInTheAgentThatTheLoopsGcDoesNotCount() throws Exception {
        Recorder recorder = new Recorder();
        Plan twoLoops = new Plan(new ExecPlan(List.of("noop", "true"), 5, 0, 0), new FilePlan(List.of(), 0, Long.MAX_VALUE, CHUNK),
                new FloorPlan(false, 1, 0));
        long before;
        long after;
        Measurement measurement;
        try (InProcessAgent agent = new InProcessAgent(dir.resolve("agent")); AgentChannel channel = agent.channel(InProcessAgent.TOKEN, CHUNK)) {
            before = channel.info(java.time.Duration.ofSeconds(10)).counters().gcCount();
            measurement = measurement(channel, recorder);
            measurement.run(twoLoops);
            after = channel.info(java.time.Duration.ofSeconds(10)).counters().gcCount();
        }
        assertThat(after - before).as("one asked-for collection per loop at least").isGreaterThanOrEqualTo(2);
        assertThat(measurement.agentGcInLoops()).isNotNull();
        assertThat(measurement.agentGcInLoops().count()).as("the asked-for ones are outside the loops").isLessThanOrEqualTo(after - before - 2);
    }

    private static long jvmCollections() {
        return java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(java.lang.management.GarbageCollectorMXBean::getCollectionCount).filter(c -> c > 0).sum();
    }

    /**
     * The host JVM's collections inside the loops: a collection forced between samples counts; the
     * one asked of the agent before each loop (here in this same JVM) and one before the run do not.
     */
    @Test
    void theHostJvmsCollectionsInsideTheLoopsAreCountedAndThoseBeforeThemAreNot() throws Exception {
        Recorder recorder = new Recorder();
        recorder.afterSample = System::gc;
        Plan twoLoops = new Plan(new ExecPlan(List.of("noop", "true"), 3, 0, 0), new FilePlan(List.of(), 0, Long.MAX_VALUE, CHUNK),
                new FloorPlan(false, 1, 0));
        Measurement measurement;
        long before;
        long after;
        try (InProcessAgent agent = new InProcessAgent(dir.resolve("agent")); AgentChannel channel = agent.channel(InProcessAgent.TOKEN, CHUNK)) {
            measurement = measurement(channel, recorder);
            System.gc();
            before = jvmCollections();
            measurement.run(twoLoops);
            after = jvmCollections();
        }
        assertThat(measurement.hostGcInLoops()).isNotNull();
        assertThat(measurement.hostGcInLoops().count()).as("one forced per sample, 2 loops × 3").isGreaterThanOrEqualTo(6);
        assertThat(measurement.hostGcInLoops().count()).as("the agent's asked-for one before each loop is outside")
                .isLessThanOrEqualTo(after - before - 2);
        assertThat(measurement.hostGcInLoops().timeNs()).isNotNegative();
    }

    @Test
    void noLoopNoHostGcFigure() throws Exception {
        Recorder recorder = new Recorder();
        try (InProcessAgent agent = new InProcessAgent(dir.resolve("agent")); AgentChannel channel = agent.channel(InProcessAgent.TOKEN, CHUNK)) {
            Measurement measurement = measurement(channel, recorder);
            measurement.run(new Plan(new ExecPlan(List.of(), 1, 0, 0), new FilePlan(List.of(), 0, Long.MAX_VALUE, CHUNK),
                    new FloorPlan(false, 1, 0)));
            assertThat(measurement.hostGcInLoops()).isNull();
        }
    }

    @Test
    void afterItsFixedWarmUpTheAgentIsPingedInBlocksUntilABlockInWhichItsJitBarelyCompiled() throws Exception {
        Recorder recorder = new Recorder();
        AtomicInteger pings = new AtomicInteger();
        ClientInterceptor countPings = new ClientInterceptor() {
            @Override
            public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
                if (method.getFullMethodName().equals(AgentGrpc.getPingMethod().getFullMethodName())) {
                    pings.incrementAndGet();
                }
                return next.newCall(method, options);
            }
        };
        Plan plan = new Plan(new ExecPlan(List.of("noop"), 3, 0, 20), new FilePlan(List.of(), 0, Long.MAX_VALUE, CHUNK),
                new FloorPlan(false, 1, 0));
        List<Long> blocks;
        try (InProcessAgent agent = new InProcessAgent(dir.resolve("agent"));
             AgentChannel channel = agent.channel(InProcessAgent.TOKEN, CHUNK, List.of(countPings))) {
            Measurement measurement = measurement(channel, recorder);
            measurement.run(plan);
            blocks = measurement.agentJitSettleBlocks();
        }
        // The in-process agent's JIT is this test JVM's: it reports compile time, so at least one block is made.
        assertThat(blocks).isNotEmpty().hasSizeLessThanOrEqualTo(16);
        assertThat(pings.get()).as("20 fixed warm-up pings, a quarter of them (5) per block, 3 measured").isEqualTo(20 + 5 * blocks.size() + 3);
        for (long block : blocks.subList(0, blocks.size() - 1)) {
            assertThat(block).as("a block before the last one compiled for 5 ms or more").isGreaterThanOrEqualTo(5_000_000L);
        }
        if (blocks.size() < 16) {
            assertThat(blocks.get(blocks.size() - 1)).as("the last block compiled for less than 5 ms").isLessThan(5_000_000L);
        }
        assertThat(recorder.samples).hasSize(3).allMatch(s -> s.phase() == Phase.MEASURED);
    }

    @Test
    void aPlanThatSpawnsGetsUntimedTrueExecsInBlocksAfterThePingBlocksAndANoOpOnlyPlanNone() throws Exception {
        AtomicInteger execs = new AtomicInteger();
        ClientInterceptor countExecs = new ClientInterceptor() {
            @Override
            public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
                if (method.getFullMethodName().equals(AgentGrpc.getExecMethod().getFullMethodName())) {
                    execs.incrementAndGet();
                }
                return next.newCall(method, options);
            }
        };
        Plan spawns = new Plan(new ExecPlan(List.of("true"), 3, 0, 20), new FilePlan(List.of(), 0, Long.MAX_VALUE, CHUNK),
                new FloorPlan(false, 1, 0));
        Plan noOpOnly = new Plan(new ExecPlan(List.of("noop"), 3, 0, 20), new FilePlan(List.of(), 0, Long.MAX_VALUE, CHUNK),
                new FloorPlan(false, 1, 0));
        List<Long> blocks;
        int noOpExecs;
        List<Long> noOpBlocks;
        try (InProcessAgent agent = new InProcessAgent(dir.resolve("agent"));
             AgentChannel channel = agent.channel(InProcessAgent.TOKEN, CHUNK, List.of(countExecs))) {
            Measurement measurement = measurement(channel, new Recorder());
            measurement.run(spawns);
            blocks = measurement.agentExecJitSettleBlocks();
            int spawnsExecs = execs.getAndSet(0);
            Measurement noOp = measurement(channel, new Recorder());
            noOp.run(noOpOnly);
            noOpExecs = execs.get();
            noOpBlocks = noOp.agentExecJitSettleBlocks();
            // The in-process agent's JIT is this test JVM's: it reports compile time, so at least one block is made.
            assertThat(blocks).isNotEmpty().hasSizeLessThanOrEqualTo(8);
            assertThat(spawnsExecs).as("2 fixed warm-up execs (a tenth of 20), a tenth of 20 (2) per block, 3 measured")
                    .isEqualTo(2 + 2 * blocks.size() + 3);
        }
        for (long block : blocks.subList(0, blocks.size() - 1)) {
            assertThat(block).as("a block before the last one compiled for 5 ms or more").isGreaterThanOrEqualTo(5_000_000L);
        }
        assertThat(noOpBlocks).isEmpty();
        assertThat(noOpExecs).as("only the 2 fixed warm-up execs").isEqualTo(2);
    }

    @Test
    void noJitSettlingWithoutAgentWarmUp() throws Exception {
        Recorder recorder = new Recorder();
        try (InProcessAgent agent = new InProcessAgent(dir.resolve("agent")); AgentChannel channel = agent.channel(InProcessAgent.TOKEN, CHUNK)) {
            Measurement measurement = measurement(channel, recorder);
            measurement.run(execOnly("noop", 3, 0));
            assertThat(measurement.agentJitSettleBlocks()).isEmpty();
        }
    }

    @Test
    void warmUpsAreTakenAndMarkedApartFromTheMeasuredIterations() throws Exception {
        Recorder recorder = new Recorder();
        try (InProcessAgent agent = new InProcessAgent(dir.resolve("agent")); AgentChannel channel = agent.channel(InProcessAgent.TOKEN, CHUNK)) {
            measurement(channel, recorder).run(execOnly("true", 6, 4));
        }
        assertThat(recorder.samples).hasSize(10).allMatch(Sample::ok);
        assertThat(recorder.samples).filteredOn(s -> s.phase() == Phase.WARMUP).extracting(Sample::iteration).containsExactly(1, 2, 3, 4);
        assertThat(recorder.samples).filteredOn(s -> s.phase() == Phase.MEASURED).extracting(Sample::iteration)
                .containsExactly(1, 2, 3, 4, 5, 6);
        // Warm-ups first, all of them before the first measured iteration.
        assertThat(recorder.samples.subList(0, 4)).allMatch(s -> s.phase() == Phase.WARMUP);
        Progress last = recorder.progress.get(recorder.progress.size() - 1);
        assertThat(last.done()).isEqualTo(10);
        assertThat(last.total()).isEqualTo(10);
    }

    @Test
    void progressWeighsATransferByItsBytes() throws Exception {
        // 3 exec metrics × (10 + 2) = 36 units; 1 MiB × (2 + 1) iterations × (1 + 2 × 4) = 27;
        // 16 MiB × (1 + 1) × (1 + 2 × 64) = 258; the floor is off. 36 + 27 + 258 = 321.
        Plan mixed = new Plan(new ExecPlan(List.of("noop", "true", "sh_c"), 10, 2, 0),
                new FilePlan(List.of(new FileSize(1L << 20, 2), new FileSize(16L << 20, 1)), 1, Long.MAX_VALUE, CHUNK),
                new FloorPlan(false, 1, 0));
        assertThat(Measurement.progressUnits(mixed)).isEqualTo(321);

        Recorder recorder = new Recorder();
        try (InProcessAgent agent = new InProcessAgent(dir.resolve("agent")); AgentChannel channel = agent.channel(InProcessAgent.TOKEN, CHUNK)) {
            measurement(channel, recorder).run(filesOnly(1L << 20, 2));
        }
        // Each 1 MiB iteration (an upload and a download) moves the count by 1 + 2 × 4 = 9 units.
        assertThat(recorder.progress).extracting(Progress::done).containsExactly(9L, 18L);
        assertThat(recorder.progress).extracting(Progress::total).containsOnly(18L);
    }

    @Test
    void theFilePathsAreWarmedUntimedOnceBeforeTheFileLoopsWhenAgentWarmUpIsOn() throws Exception {
        Plan warmed = new Plan(new ExecPlan(List.of(), 1, 0, 1), new FilePlan(List.of(new FileSize(1L << 20, 2), new FileSize(2L << 20, 1)),
                0, Long.MAX_VALUE, CHUNK), new FloorPlan(false, 1, 0));
        Recorder recorder = new Recorder();
        Measurement measurement;
        long received;
        try (InProcessAgent agent = new InProcessAgent(dir.resolve("agent")); AgentChannel channel = agent.channel(InProcessAgent.TOKEN, CHUNK)) {
            long before = channel.info(java.time.Duration.ofSeconds(10)).counters().allocatedBytes();
            measurement = measurement(channel, recorder);
            measurement.run(warmed);
            received = channel.info(java.time.Duration.ofSeconds(10)).counters().allocatedBytes() - before;
        }
        // One lane (no bulk lane here) whose loops move 4 MiB each way: one upload and download of 16 MiB.
        assertThat(measurement.fileWarmupTransfers()).isEqualTo(1);
        // 16 MiB up and down went through this JVM (agent and host share it here) on top of the
        // loops' 4 MiB each way: at least the 32 MiB that were read into chunks.
        assertThat(received).isGreaterThan(32L << 20);
        // Untimed: no sample, and the measured iterations are all there is.
        assertThat(recorder.samples).hasSize(6).allMatch(s -> s.phase() == Phase.MEASURED);
        assertThat(dir.resolve("staging")).isEmptyDirectory();
        try (var left = Files.walk(dir.resolve("agent").resolve("work"))) {
            assertThat(left.filter(Files::isRegularFile)).as("nothing left in the agent's work directory").isEmpty();
        }
    }

    @Test
    void aLaneGetsAsManyWarmUpFilesAsItsOwnTransfersFillFromOneToSixteen() {
        assertThat(FileWarmup.times(1)).isEqualTo(1);
        assertThat(FileWarmup.times(16L << 20)).isEqualTo(1);
        assertThat(FileWarmup.times((16L << 20) + 1)).isEqualTo(2);
        assertThat(FileWarmup.times(100L << 20)).isEqualTo(7);
        assertThat(FileWarmup.times(5 * (100L << 20))).isEqualTo(16);
        assertThat(FileWarmup.times(Long.MAX_VALUE)).isEqualTo(16);
    }

    @Test
    void noFileWarmUpWhenAgentWarmUpIsOff() throws Exception {
        Recorder recorder = new Recorder();
        Measurement measurement;
        try (InProcessAgent agent = new InProcessAgent(dir.resolve("agent")); AgentChannel channel = agent.channel(InProcessAgent.TOKEN, CHUNK)) {
            measurement = measurement(channel, recorder);
            measurement.run(filesOnly(1L << 20, 1));
        }
        assertThat(measurement.fileWarmupTransfers()).isZero();
        assertThat(recorder.samples).hasSize(2);
    }

    @Test
    void tenFailuresInARowAbortTheRun() throws Exception {
        Recorder recorder = new Recorder();
        try (InProcessAgent agent = new InProcessAgent(dir.resolve("agent")); AgentChannel channel = agent.channel(InProcessAgent.TOKEN, CHUNK)) {
            Files.writeString(dir.resolve("agent/work/files"), "a file where the agent wants a directory");
            assertThatThrownBy(() -> measurement(channel, recorder).run(filesOnly(4096, 30)))
                    .isInstanceOf(AbortedException.class)
                    .hasMessageStartingWith("10 failures in a row in file.upload.");
        }
        assertThat(recorder.samples).hasSize(10).noneMatch(Sample::ok);
    }

    @Test
    void aSuccessBeforeTheTenthFailureResetsTheCount() throws Exception {
        Recorder recorder = new Recorder();
        Path blocker = dir.resolve("agent/work/files");
        // After 9 failed uploads the directory can be made again: the 10th upload succeeds.
        recorder.afterSample = () -> {
            if (recorder.samples.size() == 9) {
                try {
                    Files.deleteIfExists(blocker);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
        try (InProcessAgent agent = new InProcessAgent(dir.resolve("agent")); AgentChannel channel = agent.channel(InProcessAgent.TOKEN, CHUNK)) {
            Files.writeString(blocker, "a file where the agent wants a directory");
            measurement(channel, recorder).run(filesOnly(4096, 12));
        }
        // 9 failed uploads, then 3 iterations of upload + download that succeeded.
        assertThat(recorder.samples.subList(0, 9)).noneMatch(Sample::ok);
        assertThat(recorder.samples.subList(9, recorder.samples.size())).hasSize(6).allMatch(Sample::ok);
    }

    @Test
    void aCancelStopsTheLoopsBetweenIterations() throws Exception {
        Recorder recorder = new Recorder();
        recorder.cancel = r -> r.progress.size() >= 7;
        try (InProcessAgent agent = new InProcessAgent(dir.resolve("agent")); AgentChannel channel = agent.channel(InProcessAgent.TOKEN, CHUNK)) {
            assertThatThrownBy(() -> measurement(channel, recorder).run(execOnly("noop", 50, 5)))
                    .isInstanceOf(CancelledException.class);
        }
        // Seven whole iterations (5 warm-ups, 2 measured), not one more, none cut short.
        assertThat(recorder.samples).hasSize(7).allMatch(Sample::ok);
        assertThat(recorder.samples.get(6).phase()).isEqualTo(Phase.MEASURED);
        assertThat(recorder.samples.get(6).iteration()).isEqualTo(2);
    }
}
