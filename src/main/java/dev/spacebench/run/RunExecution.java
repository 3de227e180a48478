package dev.spacebench.run;

import dev.spacebench.measure.JvmBackgroundWork;
import dev.spacebench.run.samples.MetricSamples;
import dev.spacebench.run.samples.SampleBatches;
import dev.spacebench.run.samples.SortedSamples;
import dev.spacebench.channel.AgentChannel;
import dev.spacebench.channel.AgentChannels;
import dev.spacebench.channel.AgentInfo;
import dev.spacebench.database.DatabaseDisk;
import dev.spacebench.driver.DriverJob;
import dev.spacebench.driver.DriverProcess;
import dev.spacebench.driver.DriverResult;
import dev.spacebench.driver.DriverSettings;
import dev.spacebench.environment.BuildFacts;
import dev.spacebench.environment.Environment;
import dev.spacebench.environment.JvmGc;
import dev.spacebench.environment.SystemFacts;
import dev.spacebench.measure.AbortedException;
import dev.spacebench.measure.CancelledException;
import dev.spacebench.run.sweep.ConcurrencySweep;
import dev.spacebench.measure.Sample;
import dev.spacebench.metric.InEntry;
import dev.spacebench.measure.SpaceTimer;
import dev.spacebench.plan.Plan;
import dev.spacebench.space.FirstPing;
import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceException;
import dev.spacebench.space.SpaceSettings;
import dev.spacebench.space.SpaceFacts;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.Spaces;
import dev.spacebench.space.SpacesSettings;
import dev.spacebench.space.local.AgentArchive;
import dev.spacebench.space.local.OwnerMark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Carries out one claimed run: create the Space, wait for its agent's first Ping, record the
 * environment, run the plan's loops, and always delete the Space; then the concurrency sweep, if
 * the plan has one ({@link ConcurrencySweep}, which deletes its own Spaces). The figures are computed from
 * whatever samples were taken, so a failed or cancelled run keeps what it measured and says why.
 */
@Component
public class RunExecution {

    private static final Logger log = LoggerFactory.getLogger(RunExecution.class);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    /** A live agent answers a Ping within ms; this much covers a GC pause on a starved host. */
    private static final Duration AFTER_LAST_LOOP_PING = Duration.ofSeconds(5);
    /**
     * Before each Space's timed start the app waits until its own JIT compilers and GC have been
     * idle for a window, at most {@code spacebench.space.quiet-before-start} ({@link JvmBackgroundWork});
     * the page says how long.
     */
    static final Duration QUIET_WINDOW = Duration.ofMillis(50);

    private final RunRepository runs;
    private final SampleBatches batches;
    private final SortedSamples sortedSamples;
    private final MetricResultRepository results;
    private final Spaces spaces;
    private final AgentChannels channels;
    private final BuildFacts buildFacts;
    private final TransactionTemplate transactions;
    private final Duration readyTimeout;
    private final Duration quietAtMost;
    private final Duration quietBeforeLoops;
    private final Path spacesRoot;
    private final DatabaseDisk disk;
    /** {@code spacebench.driver.cpus}: where the measuring driver runs; null: not pinned. */
    private final String driverCpus;

    public RunExecution(RunRepository runs, SampleBatches batches, SortedSamples sortedSamples,
                        MetricResultRepository results, Spaces spaces, AgentChannels channels, BuildFacts buildFacts,
                        TransactionTemplate transactions, SpaceSettings space, SpacesSettings spacesSettings, DatabaseDisk disk,
                        DriverSettings driver) {
        this.disk = disk;
        this.driverCpus = driver.cpus();
        this.runs = runs;
        this.batches = batches;
        this.sortedSamples = sortedSamples;
        this.results = results;
        this.spaces = spaces;
        this.channels = channels;
        this.buildFacts = buildFacts;
        this.transactions = transactions;
        this.readyTimeout = space.readyTimeout();
        this.quietAtMost = space.quietBeforeStart();
        this.quietBeforeLoops = space.quietBeforeLoops();
        this.spacesRoot = spacesSettings.root();
    }

    /** One run's state while it is carried out: what its steps make and what its end needs. */
    private static final class Attempt {
        final long runId;
        final String worker;
        final Plan plan;
        final SpaceSpec spec;
        final RunRecorder recorder;
        final SpaceTimer timer;
        final List<JvmBackgroundWork.Wait> quietBeforeStart = new ArrayList<>();
        final List<JvmBackgroundWork.Wait> loopWaits = new ArrayList<>();
        RunStatus outcome = RunStatus.SUCCEEDED;
        String reason;
        Path staging;
        /** The Space that runs the loops, until it is deleted. */
        Space space;
        boolean hasBulkLane;
        /** Set when the agent no longer answered after the last loop: its Space is deleted untimed. */
        boolean agentDied;
        /** A comparison run's entries (issue 29), null for a run of one Space. */
        List<CompareEntry> entries;
        /** A comparison's Spaces made so far, by entry (1-based) until each is deleted; entry 1's is also {@link #space}. */
        final Map<Integer, Space> compared = new LinkedHashMap<>();
        /** Entries whose agent did not answer after the last loop: deleted untimed. */
        final java.util.Set<Integer> diedInEntries = new java.util.HashSet<>();

        Attempt(long runId, String worker, Plan plan, SpaceSpec spec, RunRecorder recorder, SpaceTimer timer) {
            this.runId = runId;
            this.worker = worker;
            this.plan = plan;
            this.spec = spec;
            this.recorder = recorder;
            this.timer = timer;
        }
    }

    /**
     * @param runId a run this worker has claimed (RUNNING)
     * @param worker this worker's name
     * @param stopping true once the app is shutting down: the run then ends INTERRUPTED
     */
    public void execute(long runId, String worker, BooleanSupplier stopping) {
        Run run = runs.findById(runId).orElseThrow();
        Plan plan = run.getPlan();
        Attempt attempt = new Attempt(runId, worker, plan, run.getSpaceSpec(), new RunRecorder(runId, worker, batches, runs, stopping),
                new SpaceTimer(spaces, channels, run.getSpaceSpec(), readyTimeout, plan.files().chunkBytes()));
        attempt.entries = run.getCompareEntries();
        if (attempt.entries != null) {
            attempt.recorder.entries(attempt.entries.stream().map(CompareEntry::label).toList());
        }
        // The app's own JIT compiles what a metric's warm-ups made hot: let it finish before the timed loop.
        attempt.recorder.beforeMeasured(JvmBackgroundWork.beforeEachLoop(attempt.loopWaits, QUIET_WINDOW, quietBeforeLoops));
        try {
            attempt.staging = stagingDirectory(runId);
            prepareAgent(runId);
            // The floor first, while this run has no Space to disturb it.
            Map<String, String> floorFacts = floor(attempt);
            int others = spaces.liveCount();
            if (attempt.entries != null) {
                new ComparisonRun(attempt.entries).measure(attempt, floorFacts, others);
            } else {
                timeExtraSpaces(attempt);
                measureInOneSpace(attempt, floorFacts, others);
                sweep(attempt);
            }
        } catch (Throwable e) {
            end(attempt, e, stopping);
        } finally {
            cleanUp(attempt);
            finishEvenOnAFullDisk(runId, plan, attempt.hasBulkLane, attempt.recorder, attempt.outcome, attempt.reason, stopping);
        }
    }

    /**
     * The plan's floor, taken in a driver of its own (issue 28: no loop of a run is timed in this
     * JVM), before any Space of the run exists; an interleaved plan's takes only the timer's reading
     * and the floor's facts here, its loops run in blocks among the Space's.
     *
     * @return facts about how the floor was taken, for the page; empty when the plan has no floor
     */
    private Map<String, String> floor(Attempt attempt) throws IOException {
        Plan plan = attempt.plan;
        if (plan.floor() == null || !plan.floor().enabled()) {
            return Map.of();
        }
        DriverJob job = DriverJob.floor(plan, spaces.agentOnUnixSocket(attempt.spec) ? attempt.staging : null);
        return DriverProcess.run(job, driverCpus, attempt.recorder, pid -> log.debug("run {}: floor driver pid {}", attempt.runId, pid))
                .floorFacts();
    }

    /** Extra Spaces only to sample the ready and delete times, each made, pinged and deleted in turn; the last one runs the loops. */
    private void timeExtraSpaces(Attempt attempt) throws SpaceException, IOException {
        for (int i = 1; i < attempt.plan.spaceCount(); i++) {
            if (attempt.recorder.cancelRequested()) {
                throw new CancelledException();
            }
            attempt.quietBeforeStart.add(JvmBackgroundWork.awaitIdle(QUIET_WINDOW, quietAtMost));
            Space[] made = new Space[1];
            try {
                SpaceTimer.Ready ready = ready(attempt, i, space -> made[0] = space);
                try (AgentChannel channel = ready.channel()) {
                    if (channel != null) {
                        ready.parts(channel.info(CALL_TIMEOUT), i).forEach(attempt.recorder::sample);
                    }
                }
            } finally {
                if (made[0] != null) {
                    attempt.recorder.sample(SpaceTimer.deleteSample(attempt.timer.delete(made[0]), i));
                }
            }
        }
    }

    /**
     * The Space that runs the loops: made and timed, its environment recorded before the loops,
     * the plan's loops, then one Ping to know its agent outlived them.
     */
    private void measureInOneSpace(Attempt attempt, Map<String, String> floorFacts, int others) throws SpaceException, IOException {
        Plan plan = attempt.plan;
        RunRecorder recorder = attempt.recorder;
        attempt.quietBeforeStart.add(JvmBackgroundWork.awaitIdle(QUIET_WINDOW, quietAtMost));
        SpaceTimer.Ready ready = ready(attempt, plan.spaceCount(), space -> {
            attempt.space = space;
            attempt.hasBulkLane = space.bulkDir() != null;
            boolean bulk = attempt.hasBulkLane;
            // Figures so far for the dashboard and the run page while the run goes on.
            recorder.onMetricDone(() -> saveInterimResults(attempt.runId, plan, bulk, recorder));
        });
        Space space = ready.space();
        try (AgentChannel channel = ready.channel()) {
            // A command target's Space has no agent (channel null): no Info, no guest facts, nothing to Ping after the loops.
            AgentInfo info = channel == null ? null : channel.info(CALL_TIMEOUT);
            if (info != null) {
                ready.parts(info, plan.spaceCount()).forEach(recorder::sample);
            }
            // Stored before the loops: figures computed from the stored samples later name the lanes from it.
            Map<String, String> facts = space.facts().withLaunchMechanism(info == null ? null : info.process().launchMechanism())
                    .withBulkLaneIfAbsent(attempt.hasBulkLane ? SpaceFacts.BulkLane.at(space.bulkDir(), null) : SpaceFacts.BulkLane.NONE)
                    .toMap();
            facts.put(JvmBackgroundWork.FACT, JvmBackgroundWork.describe(attempt.quietBeforeStart, quietAtMost));
            facts.put(DriverProcess.FACT, DriverProcess.describe(driverCpus));
            Environment environment = new Environment(SystemFacts.read(), info == null ? null : guestFacts(info), facts,
                    info == null ? null : info.process().agentVersion(), others, attempt.worker, floorFacts, null);
            saveEnvironment(attempt.runId, environment);
            // The loops run in a driver process of their own (issue 28): this JVM's JIT, GC, database
            // writes and dashboard are off their thread; it stores what the driver sends.
            // Each channel asked for (spec.channels) on this one Space, the agent's loops with ids as before.
            DriverResult measured = DriverProcess.run(new DriverJob(space.target(), space.token(), space.bulkDir(),
                    plan.files().chunkBytes(), attempt.staging, plan, attempt.spec.channelsOrDefault(), space.ssh(), space.containerExec(),
                    space.command()), driverCpus, recorder,
                    pid -> log.debug("run {}: driver pid {}", attempt.runId, pid));
            saveEnvironment(attempt.runId, withSkipped(withGcInLoops(environment, measured.agentGcInLoops(), measured.hostGcInLoops(),
                    JvmBackgroundWork.describeLoops(attempt.loopWaits, quietBeforeLoops)), recorder.skipped()));
            Optional<String> dead = channel == null ? Optional.empty() : deadAfterLastLoop(channel);
            if (dead.isPresent()) {
                attempt.agentDied = true;
                throw new AbortedException(dead.get(), null);
            }
        }
    }

    /**
     * A comparison run's Spaces and loops (issue 29): every entry's Space made in entry order (each
     * {@code space.ready}, entry 1's under the plain ids, the others' under {@code entry.<k>.…}),
     * all before the loops; then one driver measures them all in one interleaved schedule
     * ({@code measure.ComparedLoops}); then one Ping each. Each Space is in {@link Attempt#compared}
     * from the moment it exists, so {@link #cleanUp} deletes every one made, on every path; a Space
     * this app made and did not delete before it died is removed at its next start
     * ({@code space.local.LeftoverSpaces}: its directory carries this process as owner).
     */
    private final class ComparisonRun {

        private final List<CompareEntry> entries;

        ComparisonRun(List<CompareEntry> entries) {
            this.entries = entries;
        }

        /** A sample of entry {@code entry}'s Space under that entry's id ({@link InEntry}); entry 1's as it is. */
        static Sample inEntry(Sample s, int entry) {
            return entry == 1 ? s : new Sample(InEntry.id(s.metric(), entry), s.iteration(), s.phase(), s.ns(), s.bytes(), s.ok(),
                    s.error(), s.agentNs(), s.level(), s.spaceIndex(), s.block(), s.seq());
        }

        void measure(Attempt attempt, Map<String, String> floorFacts, int others) throws SpaceException, IOException {
            Plan plan = attempt.plan;
            RunRecorder recorder = attempt.recorder;
            List<SpaceTimer.Ready> readies = new ArrayList<>();
            try {
                for (int e = 1; e <= entries.size(); e++) {
                    if (recorder.cancelRequested()) {
                        throw new CancelledException();
                    }
                    readies.add(make(attempt, e));
                }
                List<AgentInfo> infos = new ArrayList<>();
                for (int e = 1; e <= readies.size(); e++) {
                    AgentInfo info = readies.get(e - 1).channel().info(CALL_TIMEOUT);
                    infos.add(info);
                    int entry = e;
                    readies.get(e - 1).parts(info, 1).forEach(part -> recorder.sample(inEntry(part, entry)));
                }
                Space first = attempt.space;
                AgentInfo info = infos.get(0);
                Map<String, String> facts = first.facts().withLaunchMechanism(info.process().launchMechanism())
                        .withBulkLaneIfAbsent(attempt.hasBulkLane ? SpaceFacts.BulkLane.at(first.bulkDir(), null) : SpaceFacts.BulkLane.NONE)
                        .toMap();
                facts.put(JvmBackgroundWork.FACT, JvmBackgroundWork.describe(attempt.quietBeforeStart, quietAtMost));
                facts.put(DriverProcess.FACT, DriverProcess.describe(driverCpus));
                for (int e = 1; e <= entries.size(); e++) {
                    // The environment is entry 1's Space's; each entry says what it was.
                    CompareEntry entry = entries.get(e - 1);
                    facts.put("comparison entry " + e, entry.label() + ": kind " + entry.space().kind() + ", shape "
                            + entry.space().describeShape() + ", channels " + entry.space().channelsOrDefault() + ", agent launch "
                            + infos.get(e - 1).process().launchMechanism());
                }
                Environment environment = new Environment(SystemFacts.read(), guestFacts(info), facts, info.process().agentVersion(), others,
                        attempt.worker, floorFacts, null);
                saveEnvironment(attempt.runId, environment);
                List<DriverJob.Entry> jobEntries = new ArrayList<>();
                for (int e = 1; e <= entries.size(); e++) {
                    Space space = readies.get(e - 1).space();
                    jobEntries.add(new DriverJob.Entry(entries.get(e - 1).label(), space.target(), space.token(), space.bulkDir(),
                            entries.get(e - 1).space().channelsOrDefault(), space.ssh()));
                }
                DriverResult measured = DriverProcess.run(DriverJob.comparing(jobEntries, plan.files().chunkBytes(), attempt.staging, plan),
                        driverCpus, recorder, pid -> log.debug("run {}: driver pid {}", attempt.runId, pid));
                // A comparison's skipped metrics are said as a single Space's are: a Space fact with the channel's reason.
                saveEnvironment(attempt.runId, withSkipped(withGcInLoops(environment, measured.agentGcInLoops(), measured.hostGcInLoops(),
                        JvmBackgroundWork.describeLoops(attempt.loopWaits, quietBeforeLoops)), recorder.skipped()));
                List<String> dead = new ArrayList<>();
                for (int e = 1; e <= readies.size(); e++) {
                    Optional<String> gone = deadAfterLastLoop(readies.get(e - 1).channel());
                    if (gone.isPresent()) {
                        attempt.diedInEntries.add(e);
                        attempt.agentDied |= e == 1;
                        dead.add("entry " + entries.get(e - 1).label() + ": " + gone.get());
                    }
                }
                if (!dead.isEmpty()) {
                    throw new AbortedException(String.join("; ", dead), null);
                }
            } finally {
                for (SpaceTimer.Ready ready : readies) {
                    ready.channel().close();
                }
            }
        }

        /** Entry {@code e}'s Space made and answering, its ready sample recorded; it is in {@link Attempt#compared} as soon as it exists. */
        private SpaceTimer.Ready make(Attempt attempt, int e) throws SpaceException, IOException {
            CompareEntry entry = entries.get(e - 1);
            Plan plan = attempt.plan;
            RunRecorder recorder = attempt.recorder;
            SpaceTimer timer = new SpaceTimer(spaces, channels, entry.space(), readyTimeout, plan.files().chunkBytes());
            attempt.quietBeforeStart.add(JvmBackgroundWork.awaitIdle(QUIET_WINDOW, quietAtMost));
            SpaceTimer.Ready ready;
            try {
                ready = timer.create(System.nanoTime(), SpaceTimer.FirstPingWait.singleSpace(), space -> {
                    attempt.compared.put(e, space);
                    if (e == 1) {
                        attempt.space = space;
                        attempt.hasBulkLane = space.bulkDir() != null;
                        boolean bulk = attempt.hasBulkLane;
                        recorder.onMetricDone(() -> saveInterimResults(attempt.runId, plan, bulk, recorder));
                    }
                });
            } catch (SpaceException ex) {
                throw new SpaceException("entry " + entry.label() + " (kind " + entry.space().kind() + "): " + ex.getMessage(), ex);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("entry " + entry.label() + ": the agent said it was ready but no Ping succeeded within "
                        + FirstPing.SINGLE_SPACE.toSeconds() + " s: " + ex.getMessage(), ex);
            }
            recorder.sample(inEntry(ready.sample(1), e));
            return ready;
        }
    }

    /** The concurrency sweep, if the plan has one: level L has L Spaces, so the single-Space loops' one goes first. */
    private void sweep(Attempt attempt) throws SpaceException, IOException {
        if (attempt.plan.concurrency() == null) {
            return;
        }
        Space done = attempt.space;
        attempt.space = null;
        deleteSpace(done, attempt.plan, attempt.recorder, attempt.timer);
        new ConcurrencySweep(spaces, channels, attempt.spec, readyTimeout, attempt.staging, attempt.recorder, driverCpus).run(attempt.plan);
    }

    /**
     * A single Space made and answering its first Ping, its {@code space.ready} recorded as
     * iteration {@code iteration}.
     */
    private static SpaceTimer.Ready ready(Attempt attempt, int iteration, SpaceTimer.Made made) throws SpaceException, IOException {
        SpaceTimer.Ready ready;
        try {
            ready = attempt.timer.create(System.nanoTime(), SpaceTimer.FirstPingWait.singleSpace(), made);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the agent said it was ready but no Ping succeeded within "
                    + FirstPing.SINGLE_SPACE.toSeconds() + " s: " + e.getMessage(), e);
        }
        attempt.recorder.sample(ready.sample(iteration));
        return ready;
    }

    /** The run's outcome and reason from what ended it. */
    private void end(Attempt attempt, Throwable e, BooleanSupplier stopping) {
        attempt.outcome = RunStatus.FAILED;
        if (e instanceof CancelledException) {
            attempt.outcome = stopping.getAsBoolean() ? RunStatus.INTERRUPTED : RunStatus.CANCELLED;
            attempt.reason = stopping.getAsBoolean() ? "the app was stopped while this run was RUNNING" : "cancelled by request";
        } else if (e instanceof SpaceException) {
            attempt.reason = "could not create the Space: " + e.getMessage();
        } else if (e instanceof AbortedException) {
            // Expected: the reason says it all, no stack trace.
            attempt.reason = e.getMessage();
        } else if (e instanceof IOException || e instanceof RuntimeException) {
            if (disk.noteFailure(e)) {
                // DatabaseDisk logged it once and reopened the database on the room it kept: this end can be recorded.
                attempt.reason = disk.problem().orElse("the database's disk is full") + ": the run stopped when it could not save "
                        + "its samples; those saved before are kept";
            } else {
                attempt.reason = e.getMessage() == null ? e.toString() : e.getMessage();
                log.warn("run {} failed", attempt.runId, e);
            }
        } else {
            // An Error (a missing native library, out of memory) ends this run, not the worker.
            attempt.reason = ErrorReasons.of(e);
            log.error("run {} failed with an error", attempt.runId, e);
        }
    }

    /** Each step on its own, so that one failing still lets the run record its end. */
    private void cleanUp(Attempt attempt) {
        // A comparison's Spaces, each on its own: one failing to go still lets the others go (entry 1's is attempt.space, below).
        for (var made : attempt.compared.entrySet()) {
            if (made.getKey() == 1) {
                continue;
            }
            try {
                if (attempt.diedInEntries.contains(made.getKey())) {
                    spaces.delete(made.getValue());
                } else {
                    attempt.recorder.sample(ComparisonRun.inEntry(SpaceTimer.deleteSample(attempt.timer.delete(made.getValue()), 1),
                            made.getKey()));
                }
            } catch (RuntimeException e) {
                log.warn("run {}: deleting the Space of its entry {} failed: {}", attempt.runId, made.getKey(), e.toString());
            }
        }
        attempt.compared.clear();
        try {
            if (attempt.space != null && attempt.agentDied) {
                spaces.delete(attempt.space);
            } else if (attempt.space != null) {
                deleteSpace(attempt.space, attempt.plan, attempt.recorder, attempt.timer);
            }
        } catch (RuntimeException e) {
            log.warn("run {}: deleting its Space failed: {}", attempt.runId, e.toString());
        }
        deleteQuietly(attempt.staging);
        try {
            attempt.recorder.flush();
        } catch (RuntimeException e) {
            log.warn("run {}: could not save its last samples: {}", attempt.runId, e.toString());
        }
        try {
            attempt.recorder.sealCsv();
        } catch (RuntimeException e) {
            log.warn("run {}: could not store the last piece of its samples.csv (the export formats those rows instead): {}",
                    attempt.runId, e.toString());
        }
    }

    /**
     * {@link #finish}, tried again every second for up to a minute while the database's disk is
     * full (the app reopens the database on the room it kept; someone may free more), so that the
     * run ends with its reason rather than being found RUNNING at the next start.
     */
    private void finishEvenOnAFullDisk(long runId, Plan plan, boolean hasBulkLane, RunRecorder recorder, RunStatus outcome,
                                       String reason, BooleanSupplier stopping) {
        for (int attempt = 1; ; attempt++) {
            try {
                finish(runId, plan, hasBulkLane, recorder.samples(), recorder.savedCount(), outcome, reason);
                return;
            } catch (RuntimeException e) {
                if (!disk.noteFailure(e) || attempt >= 60 || stopping.getAsBoolean()) {
                    throw e;
                }
            }
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * The agent's class-data archive, made now if it is not there yet; waits while the app's start
     * makes it ({@link AgentArchive#ensure()} is one at a time). A run claimed during that
     * preparation (e.g. queued before the app started) otherwise shared the CPU with the training
     * agent in its floor and first Spaces and started those without the archive: measured, the
     * first run after a new jar's start had agent starts of 710 ms p50 against about 330 ms. Outside
     * every timed region; a failure only means agents start without the archive.
     */
    private static void prepareAgent(long runId) {
        try {
            AgentArchive.ensure();
        } catch (IOException | RuntimeException e) {
            log.warn("run {}: no class-data archive for the agent (it starts without one): {}", runId, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * One Ping after the last loop, before the Space's delete is timed. An agent that died once
     * its part of the last round trip was done (killed, out of memory) left no failed iteration
     * behind; without this the run read SUCCEEDED and {@code space.delete} timed the removal of
     * what a dead agent left, which is not the figure that names. Such a run ends FAILED, like one
     * whose agent died during a loop: its figures stand, the delete is done but not timed.
     *
     * @return the reason the run fails, or empty when the agent answered
     */
    private static Optional<String> deadAfterLastLoop(AgentChannel channel) {
        try {
            channel.ping(AFTER_LAST_LOOP_PING);
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of("the agent died after the last loop: no Ping answered within " + AFTER_LAST_LOOP_PING.toSeconds()
                    + " s (" + (e.getMessage() == null ? e.toString() : e.getMessage()) + "); the figures of every loop stand, "
                    + "the Space was deleted but its delete not timed (space.delete would time cleaning up after a dead agent)");
        }
    }

    /** Deletes the Space that ran the loops, timing it as {@code space.delete}. */
    private static void deleteSpace(Space space, Plan plan, RunRecorder recorder, SpaceTimer timer) {
        recorder.sample(SpaceTimer.deleteSample(timer.delete(space), plan.spaceCount()));
    }

    /**
     * The run's host directory for source files and stream downloads: under the Spaces root (the
     * same disk as the bulk lane, so a bulk download is a rename), marked with this process as its
     * owner so that the next start removes it if this app dies mid-run.
     */
    private Path stagingDirectory(long runId) throws IOException {
        Files.createDirectories(spacesRoot);
        Path dir = Files.createTempDirectory(spacesRoot, "run-" + runId + "-");
        OwnerMark.write(dir);
        return dir;
    }

    private static SystemFacts guestFacts(AgentInfo info) {
        AgentInfo.SystemSeen system = info.system();
        return new SystemFacts(system.os(), system.kernel(), system.arch(), system.cpuModel(), system.cpuCount(),
                system.memoryBytes(), system.hostname(), info.process().jvm(), info.process().jvmFlags(), null);
    }

    /**
     * The environment plus the agent's and the host JVM's garbage collections during the loops, so
     * that the page says whether a GC pause can have landed in them. The agent's (Info before and
     * after) is left out when the agent does not answer any more (the run's own outcome says why).
     */
    private static Environment withGcInLoops(Environment environment, JvmGc gc, JvmGc host, String quietBeforeLoops) {
        Map<String, String> space = new LinkedHashMap<>(environment.space());
        space.put(JvmBackgroundWork.LOOPS_FACT, quietBeforeLoops);
        if (gc != null) {
            space.put("agent GC during the loops", gc.inWords()
                    + " (the agent JVM's collectors, ms resolution; the full collection before each loop, outside it, not counted)");
        }
        return new Environment(environment.host(), environment.guest(), space, environment.agentVersion(),
                environment.otherSpacesRunning(), environment.worker(), environment.floor(), host);
    }

    /**
     * The environment with a fact per metric a channel could not do ("not measured: via.command.exec.noop"
     * → the channel's reason), so that the page says why it has no figure instead of showing none.
     */
    private static Environment withSkipped(Environment environment, Map<String, String> skipped) {
        if (skipped.isEmpty()) {
            return environment;
        }
        Map<String, String> space = new LinkedHashMap<>(environment.space());
        skipped.forEach((metric, reason) -> space.put("not measured: " + metric, reason));
        return new Environment(environment.host(), environment.guest(), space, environment.agentVersion(),
                environment.otherSpacesRunning(), environment.worker(), environment.floor(), environment.hostGcInLoops());
    }

    private void saveEnvironment(long runId, Environment environment) {
        transactions.executeWithoutResult(tx -> {
            Run run = runs.findById(runId).orElseThrow();
            run.setEnvironment(environment);
            run.setBuild(buildFacts.build());
        });
    }

    private void saveInterimResults(long runId, Plan plan, boolean hasBulkLane, RunRecorder recorder) {
        if (recorder.lost()) {
            return;
        }
        List<MetricResult> computed = ResultCalculator.compute(runId, plan, hasBulkLane, recorder.samples());
        try {
            transactions.executeWithoutResult(tx -> {
                // Once another app has ended the run (its lease ran out), the figures it stored from the saved samples stand.
                if (runs.lockById(runId).filter(run -> run.getStatus() == RunStatus.RUNNING).isPresent()) {
                    replaceResults(runId, computed);
                }
            });
        } catch (RuntimeException e) {
            // Only a preview: the final figures are written at the end whatever happens here.
            log.warn("run {}: could not save the figures so far: {}", runId, e.toString());
        }
    }

    /** @param sampleCount samples stored, or null when some could not be */
    private void finish(long runId, Plan plan, boolean hasBulkLane, MetricSamples taken, Long sampleCount, RunStatus outcome,
                        String reason) {
        List<MetricResult> computed = ResultCalculator.compute(runId, plan, hasBulkLane, taken);
        Map<String, long[]> sorted = taken.sortedMeasured();
        boolean recorded = Boolean.TRUE.equals(transactions.execute(tx -> {
            Run run = runs.lockById(runId).orElseThrow();
            if (run.getStatus() != RunStatus.RUNNING) {
                // Its lease ran out and another app ended it (INTERRUPTED): that end stands.
                return false;
            }
            replaceResults(runId, computed);
            sortedSamples.replace(runId, sorted);
            if (run.getBuild() == null) {
                run.setBuild(buildFacts.build());
            }
            // The page shows it: counting a million rows on every view is what it would cost otherwise.
            run.setSampleCount(sampleCount);
            run.finish(outcome, reason, Instant.now());
            return true;
        }));
        if (!recorded) {
            log.warn("run {} was no longer this worker's (its lease was lost): its end here is not recorded", runId);
            return;
        }
        log.info("run {} {}{}", runId, outcome, reason == null ? "" : ": " + reason);
    }

    /** Inside a transaction. */
    private void replaceResults(long runId, List<MetricResult> computed) {
        results.deleteByRunId(runId);
        // Hibernate flushes inserts before deletes; the (run_id, metric) unique key needs the deletes first.
        results.flush();
        results.saveAll(computed);
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            log.warn("could not remove staging directory {}: {}", dir, e.toString());
        }
    }
}
