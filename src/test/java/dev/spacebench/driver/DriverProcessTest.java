package dev.spacebench.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spacebench.measure.AbortedException;
import dev.spacebench.measure.CancelledException;
import dev.spacebench.measure.MeasureListener;
import dev.spacebench.measure.Phase;
import dev.spacebench.measure.Progress;
import dev.spacebench.measure.Sample;
import dev.spacebench.plan.ExecPlan;
import dev.spacebench.plan.FilePlan;
import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.FloorPlan;
import dev.spacebench.plan.Plan;
import dev.spacebench.space.local.AgentLauncher;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver as a real process against a real agent process over TCP: its samples reach the
 * worker's listener, a cancel stops it, its death mid-loop fails with its last words and keeps what
 * came before, and it dies with the process that started it.
 */
class DriverProcessTest {

    private static final int CHUNK = 64 * 1024;

    @TempDir
    static Path dir;
    private static RealAgent agent;

    @BeforeAll
    static void startAgent() throws Exception {
        agent = new RealAgent(Files.createDirectories(dir.resolve("agent")));
    }

    @AfterAll
    static void stopAgent() {
        if (agent != null) {
            agent.close();
        }
    }

    /** Records what arrives; cancels when {@code cancel} says so. */
    private static final class Listener implements MeasureListener {
        final List<Sample> samples = new ArrayList<>();
        final List<String> events = new ArrayList<>();
        Progress last;
        Predicate<Listener> cancel = l -> false;
        Runnable afterSample = () -> {};

        @Override
        public void sample(Sample sample) {
            samples.add(sample);
            events.add(sample.metric() + " " + sample.phase().wireName() + " " + sample.iteration());
            afterSample.run();
        }

        @Override
        public void progress(Progress progress) {
            last = progress;
        }

        @Override
        public boolean cancelRequested() {
            return cancel.test(this);
        }

        @Override
        public void beforeMeasured(String metric) {
            events.add("before measured " + metric);
        }
    }

    private static DriverJob job(Plan plan) throws Exception {
        return new DriverJob(agent.target(), RealAgent.TOKEN, null, CHUNK, Files.createTempDirectory(dir, "staging"), plan);
    }

    private static Plan execOnly(List<String> metrics, int n, int warmups) {
        return new Plan(new ExecPlan(metrics, n, warmups, 0), new FilePlan(List.of(), 0, Long.MAX_VALUE, CHUNK), new FloorPlan(false, 1, 0));
    }

    @Test
    void theDriversSamplesReachTheListenerInOrderWithItsLoopsAnnouncedAndTheDriverIsGoneAfter() throws Exception {
        Listener listener = new Listener();
        AtomicLong pid = new AtomicLong();
        Plan plan = new Plan(new ExecPlan(List.of("noop", "true"), 3, 2, 0),
                new FilePlan(List.of(new FileSize(100_000L, 2)), 0, Long.MAX_VALUE, CHUNK), new FloorPlan(false, 1, 0));
        DriverResult result = DriverProcess.run(job(plan), listener, pid::set);
        assertThat(listener.events).containsExactly(
                "exec.noop warmup 1", "exec.noop warmup 2", "before measured exec.noop",
                "exec.noop measured 1", "exec.noop measured 2", "exec.noop measured 3",
                "exec.true warmup 1", "exec.true warmup 2", "before measured exec.true",
                "exec.true measured 1", "exec.true measured 2", "exec.true measured 3",
                "before measured file.upload.100000B",
                "file.upload.100000B measured 1", "file.download.100000B measured 1",
                "file.upload.100000B measured 2", "file.download.100000B measured 2");
        assertThat(listener.samples).allMatch(Sample::ok);
        // true's samples carry the agent's own time, below the round trip; the no-op's none.
        assertThat(listener.samples).filteredOn(s -> s.metric().equals("exec.true"))
                .allMatch(s -> s.agentNs() != null && s.agentNs() > 0 && s.agentNs() < s.ns());
        assertThat(listener.samples).filteredOn(s -> s.metric().equals("file.download.100000B")).allMatch(s -> s.bytes() == 100_000);
        // 2 × (3 + 2) exec iterations + 2 file iterations of 1 + 2 × ⌊100000 / 256 KiB⌋ = 1 unit each.
        assertThat(listener.last).isEqualTo(new Progress("file.upload.100000B", Phase.MEASURED, 2, 2, 12, 12));
        assertThat(result.hostGcInLoops()).isNotNull();
        assertThat(result.agentGcInLoops()).isNotNull();
        assertThat(ProcessHandle.of(pid.get()).filter(ProcessHandle::isAlive)).isEmpty();
    }

    /**
     * A class-data archive that does not fit the driver's class path (made for another one, as the
     * archive of another class path beside the same classes.jar was) makes a JVM print a warning, by
     * default on stdout: the driver's stream then started with it and the run failed ("does not start
     * with its header"). The driver's command sends the JVM's warnings to stderr.
     */
    @Test
    void aDriverGivenAClassDataArchiveOfAnotherClassPathStillSendsAWholeStream() throws Exception {
        List<String> command = new ArrayList<>(DriverProcess.command(null));
        command.removeIf(option -> option.startsWith("-XX:SharedArchiveFile="));
        int cp = command.indexOf("-cp");
        List<String> classPath = List.of(command.get(cp + 1).split(java.io.File.pathSeparator));
        // The same classes at another path: an archive made on it is refused on the driver's class path.
        Path other = Files.createDirectories(dir.resolve("other")).resolve("classes.jar");
        Files.copy(Path.of(classPath.get(0)), other);
        List<String> otherClassPath = new ArrayList<>(classPath);
        otherClassPath.set(0, other.toString());
        Path archive = dir.resolve("other.jsa");
        Process dump = new ProcessBuilder(AgentLauncher.javaBinary(), "-XX:ArchiveClassesAtExit=" + archive,
                "-cp", String.join(java.io.File.pathSeparator, otherClassPath), DriverProcess.DRIVER_MAIN)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).redirectErrorStream(true)
                .redirectOutput(dir.resolve("dump.log").toFile()).start();
        assertThat(dump.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(archive).as("the archive made on the other class path (%s)", dir.resolve("dump.log")).isNotEmptyFile();
        command.add(cp, "-XX:SharedArchiveFile=" + archive);

        // The hazard is real: without the driver's logging options, the JVM's first bytes on stdout are its warning.
        List<String> loud = new ArrayList<>(command);
        loud.removeAll(AgentLauncher.QUIET_STDOUT);
        Process plain = new ProcessBuilder(loud).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String stdout = new String(plain.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(plain.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(stdout).startsWith("[").contains("[warning][cds");

        // The driver's own command: a whole stream, every sample there.
        assertThat(command).containsAll(AgentLauncher.QUIET_STDOUT);
        Listener listener = new Listener();
        DriverResult result = DriverProcess.run(command, job(execOnly(List.of("noop"), 5, 1)), listener, pid -> {});
        assertThat(listener.samples).hasSize(6).allMatch(Sample::ok);
        assertThat(result.hostGcInLoops()).isNotNull();
    }

    @Test
    void aDriverPinnedToACpuRunsThereOnly() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isExecutable(Path.of("/usr/bin/taskset")),
                "taskset is missing: install the Debian package util-linux");
        Listener listener = new Listener();
        AtomicLong pid = new AtomicLong();
        List<String> allowed = new ArrayList<>();
        listener.afterSample = () -> {
            if (allowed.isEmpty()) {
                allowed.add(DriverProcess.allowedCpus(Path.of("/proc/" + pid.get() + "/status")));
            }
        };
        DriverProcess.run(job(execOnly(List.of("noop"), 5, 0)), "0", listener, pid::set);
        assertThat(allowed).containsExactly("0");
        assertThat(listener.samples).hasSize(5);
    }

    @Test
    void aDriverKilledMidLoopFailsWithItsExitAndLastWordsAndTheSamplesBeforeStay() throws Exception {
        Listener listener = new Listener();
        AtomicLong pid = new AtomicLong();
        listener.afterSample = () -> {
            if (listener.samples.size() == 300) {
                ProcessHandle.of(pid.get()).ifPresent(ProcessHandle::destroyForcibly); // SIGKILL
            }
        };
        DriverJob job = job(execOnly(List.of("noop"), 1_000_000, 0));
        assertThatThrownBy(() -> DriverProcess.run(job, listener, pid::set))
                .isInstanceOf(AbortedException.class)
                .hasMessageContaining("the measuring driver (pid " + pid.get() + ") died, killed by signal 9 (SIGKILL)")
                .hasMessageContaining("without its end frame")
                .hasMessageContaining("its last words: driver " + pid.get() + ": measuring " + agent.target());
        assertThat(listener.samples.size()).isBetween(300, 1_000_000 - 1);
        assertThat(listener.samples).extracting(Sample::iteration).startsWith(1, 2, 3);
        assertThat(ProcessHandle.of(pid.get()).filter(ProcessHandle::isAlive)).isEmpty();
    }

    @Test
    void aCancelStopsTheDriverAtTheNextIterationAndItExits() throws Exception {
        Listener listener = new Listener();
        AtomicLong pid = new AtomicLong();
        listener.cancel = l -> l.samples.size() >= 200;
        DriverJob job = job(execOnly(List.of("true"), 1_000_000, 0));
        long start = System.nanoTime();
        assertThatThrownBy(() -> DriverProcess.run(job, listener, pid::set)).isInstanceOf(CancelledException.class);
        assertThat(listener.samples.size()).isBetween(200, 1_000_000 - 1);
        assertThat(ProcessHandle.of(pid.get()).filter(ProcessHandle::isAlive)).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60));
    }

    /** Whether the process has exited: no longer there, or a zombie (state Z in /proc/PID/stat). */
    private static boolean ended(ProcessHandle process) {
        try {
            String stat = Files.readString(Path.of("/proc/" + process.pid() + "/stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (java.io.IOException e) {
            return true;
        }
    }

    @Test
    void theDriverExitsWithinASecondOfItsParentsDeathBySigkill() throws Exception {
        diesWithItsParent("loop", "samples");
    }

    /**
     * Waiting for its go before a measured loop, the driver writes nothing, so no broken stdout pipe
     * would end it (mid-loop its next flush would): only its stdin's end does (DriverControl's halt).
     */
    @Test
    void aDriverWaitingForItsGoExitsWithinASecondOfItsParentsDeathBySigkill() throws Exception {
        diesWithItsParent("hold", "before measured");
    }

    private void diesWithItsParent(String mode, String killAfter) throws Exception {
        List<String> command = List.of(AgentLauncher.javaBinary(), "-cp", System.getProperty("java.class.path"),
                DriverParent.class.getName(), agent.target(), Files.createTempDirectory(dir, "staging").toString(), mode);
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(dir.resolve("parent.log").toFile());
        builder.environment().put("SPACEBENCH_TEST_TOKEN", RealAgent.TOKEN);
        Process parent = builder.start();
        Optional<ProcessHandle> driver = Optional.empty();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8));
            String first = out.readLine();
            assertThat(first).as("the parent's first line (its stderr: %s)", dir.resolve("parent.log")).startsWith("driver ");
            driver = ProcessHandle.of(Long.parseLong(first.substring("driver ".length())));
            assertThat(out.readLine()).isEqualTo(killAfter); // mid-loop, or waiting for its go
            assertThat(driver).isPresent();
            parent.toHandle().destroyForcibly();
            assertThat(parent.waitFor(10, TimeUnit.SECONDS)).isTrue();
            long parentGone = System.nanoTime();
            ProcessHandle handle = driver.get();
            // Ended: gone, or a zombie (exited, its memory and files released) that the reaper of orphans
            // (PID 1 here, which takes its time on a loaded host) has not collected yet.
            while (!ended(handle) && System.nanoTime() - parentGone < TimeUnit.SECONDS.toNanos(10)) {
                Thread.sleep(5);
            }
            Duration after = Duration.ofNanos(System.nanoTime() - parentGone);
            assertThat(ended(handle)).as("the driver still runs %s after its parent died", after).isTrue();
            assertThat(after).isLessThan(Duration.ofSeconds(1));
        } finally {
            parent.destroyForcibly();
            driver.ifPresent(ProcessHandle::destroyForcibly);
        }
    }
}
