package dev.spacebench.driver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.floor.HyperfineFloor;
import dev.spacebench.measure.MeasureListener;
import dev.spacebench.measure.Phase;
import dev.spacebench.measure.Progress;
import dev.spacebench.measure.Sample;
import dev.spacebench.plan.ConcurrencyPlan;
import dev.spacebench.plan.ExecPlan;
import dev.spacebench.plan.FilePlan;
import dev.spacebench.plan.FloorPlan;
import dev.spacebench.plan.Plan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver's other tasks (issue 28, one path): the floor before any Space, and one level of a
 * concurrency sweep over two real agent processes, each run by a real driver process whose samples,
 * wall times and facts reach the worker's listener as the in-process loops once reported them.
 */
class DriverTasksTest {

    private static final int CHUNK = 64 * 1024;

    @TempDir
    Path dir;

    private static final class Listener implements MeasureListener {
        final List<Sample> samples = new ArrayList<>();
        final Map<String, Long> walls = new LinkedHashMap<>();
        Progress last;

        @Override
        public void sample(Sample sample) {
            samples.add(sample);
        }

        @Override
        public void progress(Progress progress) {
            last = progress;
        }

        @Override
        public boolean cancelRequested() {
            return false;
        }

        @Override
        public void sweepWall(String metric, long ns) {
            walls.put(metric, ns);
        }
    }

    @Test
    void aDriverWhoseClassPathLacksJacksonSaysSoAtItsStartWhateverItsTask() throws Exception {
        List<String> command = new ArrayList<>(DriverProcess.command(null));
        int cp = command.indexOf("-cp") + 1;
        List<String> kept = java.util.Arrays.stream(command.get(cp).split(java.io.File.pathSeparator))
                .filter(entry -> !Path.of(entry).getFileName().toString().startsWith("jackson-")).toList();
        assertThat(kept).as("the test's class path had Jackson's jars to leave out").hasSizeLessThan(command.get(cp).split(":").length);
        command.set(cp, String.join(java.io.File.pathSeparator, kept));
        // A driver that would only meet Jackson later (a floor reading hyperfine's JSON) refuses at once, before its job.
        Process driver = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.PIPE).start();
        assertThat(driver.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        String stderr = new String(driver.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(driver.exitValue()).as(stderr).isEqualTo(2);
        assertThat(stderr).contains("driver: its class path lacks jackson-");
        assertThat(driver.getInputStream().readAllBytes()).as("frames on stdout").isEmpty();
    }

    @Test
    void aFloorJobTakesEverySequentialFloorLoopInTheDriverAndSendsItsFacts() throws Exception {
        Plan plan = new Plan(new ExecPlan(List.of("noop"), 5, 0, 10), new FilePlan(List.of(), 0, Long.MAX_VALUE, CHUNK),
                new FloorPlan(true, 4, 1), null, null, Plan.SEQUENTIAL, null, null);
        Listener listener = new Listener();
        AtomicLong pid = new AtomicLong();
        DriverResult result = DriverProcess.run(DriverJob.floor(plan, null), listener, pid::set);

        Map<String, Long> counts = listener.samples.stream().collect(Collectors.groupingBy(Sample::metric, Collectors.counting()));
        boolean hyperfine = HyperfineFloor.onPath("hyperfine", System.getenv("PATH")).isPresent();
        Map<String, Long> expected = new LinkedHashMap<>(Map.of("floor.timer", 1L, "floor.spawn.true", 4L, "floor.spawn.sh_c", 4L,
                "floor.grpc.noop", 4L));
        if (hyperfine) {
            expected.put("floor.hyperfine.true", 4L);
            expected.put("floor.hyperfine.sh_c", 4L);
        }
        assertThat(counts).as("floor samples per metric (hyperfine on PATH: %s)", hyperfine).isEqualTo(expected);
        assertThat(listener.samples).allMatch(s -> s.ok() && s.phase() == Phase.MEASURED && s.ns() > 0);
        // The facts the page gives came back in the result frame, in the order the floor wrote them.
        assertThat(result.floorFacts()).containsEntry("bare gRPC ping transport", "TCP loopback, to a server in a JVM of its own")
                .containsKey("host spawn launch mechanism").containsKey("floor warm-ups");
        assertThat(result.floorFacts().get("hyperfine")).startsWith(hyperfine ? "hyperfine -N --runs 4 --warmup 1" : "not measured");
        // 1 timer reading + 5 loops × (4 + 1): every unit the plan's floor counts.
        assertThat(listener.last.done()).isEqualTo(26);
        assertThat(pid.get()).isNotEqualTo(ProcessHandle.current().pid());
        assertThat(ProcessHandle.of(pid.get()).filter(ProcessHandle::isAlive)).as("the floor's driver after its end").isEmpty();
    }

    @Test
    void anInterleavedFloorJobTakesOnlyTheTimerAndTheFacts() throws Exception {
        Plan plan = new Plan(new ExecPlan(List.of("noop"), 20, 0, 10), new FilePlan(List.of(), 0, Long.MAX_VALUE, CHUNK),
                new FloorPlan(true, 20, 1), null, null, Plan.INTERLEAVED, 10, 7L);
        Listener listener = new Listener();
        DriverResult result = DriverProcess.run(DriverJob.floor(plan, null), listener, pid -> { });
        assertThat(listener.samples).extracting(Sample::metric).containsExactly("floor.timer");
        assertThat(result.floorFacts().get("floor order")).startsWith("interleaved with the Space's loops");
    }

    @Test
    void aSweepLevelJobRunsEverySpacesLoopsTogetherAndReportsTheirWallTime() throws Exception {
        try (RealAgent one = new RealAgent(Files.createDirectories(dir.resolve("agent-1")));
             RealAgent two = new RealAgent(Files.createDirectories(dir.resolve("agent-2")))) {
            Plan plan = new Plan(new ExecPlan(List.of("noop"), 3, 1, 0), new FilePlan(List.of(), 1, Long.MAX_VALUE, CHUNK),
                    new FloorPlan(false, 1, 0), null, new ConcurrencyPlan(List.of(1, 2), List.of("noop", "true"), 6, 100_000L, 2));
            Path staging = Files.createDirectories(dir.resolve("staging"));
            Files.createDirectories(staging.resolve("sweep-2-1"));
            Files.createDirectories(staging.resolve("sweep-2-2"));
            Listener listener = new Listener();
            AtomicLong pid = new AtomicLong();
            DriverProcess.run(DriverJob.sweepLevel(plan, staging, List.of(new DriverJob.Target(one.target(), RealAgent.TOKEN, null),
                    new DriverJob.Target(two.target(), RealAgent.TOKEN, null))), listener, pid::set);

            for (String metric : List.of("sweep.2.exec.noop", "sweep.2.exec.true")) {
                for (int space = 1; space <= 2; space++) {
                    int s = space;
                    List<Sample> mine = listener.samples.stream().filter(x -> x.metric().equals(metric) && x.spaceIndex() == s).toList();
                    assertThat(mine).as("%s at Space %d", metric, s).extracting(Sample::phase)
                            .containsExactly(Phase.WARMUP, Phase.MEASURED, Phase.MEASURED, Phase.MEASURED, Phase.MEASURED, Phase.MEASURED,
                                    Phase.MEASURED);
                    assertThat(mine).allMatch(x -> x.ok() && x.level() == 2);
                }
                long slowest = listener.samples.stream().filter(x -> x.metric().equals(metric) && x.phase() == Phase.MEASURED)
                        .mapToLong(Sample::ns).max().orElseThrow();
                // From the common start to the last Space's last sample: at least its slowest round trip.
                assertThat(listener.walls.get(metric)).as("%s wall time", metric).isGreaterThanOrEqualTo(slowest);
            }
            assertThat(listener.samples).filteredOn(x -> x.metric().startsWith("sweep.2.file.")).extracting(Sample::metric)
                    .contains("sweep.2.file.upload.100000B", "sweep.2.file.download.100000B");
            assertThat(listener.walls).containsKeys("sweep.2.file.upload.100000B", "sweep.2.file.download.100000B");
            assertThat(listener.samples).noneMatch(x -> x.metric().startsWith("sweep.1."));
            // Level 2's units after level 1's (1 Space) and the single Space's loops: all of the plan's.
            assertThat(listener.last.done()).isEqualTo(listener.last.total());
            assertThat(ProcessHandle.of(pid.get()).filter(ProcessHandle::isAlive)).as("the level's driver after its end").isEmpty();
        }
    }
}
