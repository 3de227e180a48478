package dev.spacebench.space;

import dev.spacebench.channel.AgentChannel;
import dev.spacebench.channel.AgentChannels;
import jakarta.annotation.PreDestroy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;

/**
 * Knows which kinds of Space can run here because it made one of each: the smallest Space of the
 * kind (no shape), its agent's first Ping, then its deletion. A program on PATH proves nothing (a
 * host without user namespaces has bwrap and cannot run it).
 *
 * <p>Every kind is checked once when the app is ready, in the background, each kind on its own
 * thread so that a slow one (a vm under emulation boots for ≈20 s) keeps no other kind
 * "checking", and again on {@link #checkAll()}. Kinds named in {@code spacebench.space.check-on-demand}
 * are not checked at start but when first asked for ({@link #await}) or on {@link #checkAll()};
 * until then they say "not checked yet", never a guess. A kind whose cheap prerequisites are missing ({@link SpaceProvider#availability()}),
 * or whose agent is reached over a unix socket where this JVM cannot open one, fails at once with
 * the reason, without making anything, so a vm (≈20 s under emulation) is only started where it could run. {@code attach} makes no Space: it is available, and each
 * target is checked when a run asks for it.
 *
 * <p>The checks' Spaces live under their own directory ({@code spacebench-kind-checks/PID} in the
 * temp directory), apart from the runs' Spaces; directories left by an app that died are removed
 * at start.
 */
@Service
public class KindChecks {

    private static final Logger log = LoggerFactory.getLogger(KindChecks.class);
    /** Listed first and in this order: they decide the default kind. */
    private static final List<String> FIRST = List.of(SpaceKinds.SANDBOX, SpaceKinds.PROCESS);
    private static final Duration PING_WITHIN = FirstPing.SINGLE_SPACE;

    private final Map<String, SpaceProvider> providers = new LinkedHashMap<>();
    private final AgentChannels channels;
    private final Duration readyTimeout;
    private final Path checksRoot;
    private final Path root;
    /** One thread per kind: a kind's checks run one at a time, and no kind waits for another's. */
    private final Map<String, ExecutorService> executors = new LinkedHashMap<>();
    private final Set<String> onDemand;
    /** Guarded by {@code this}: the last known status of each kind (checking until its first check ends). */
    private final Map<String, KindStatus> statuses = new LinkedHashMap<>();
    /** Guarded by {@code this}: kinds with a check queued or running. */
    private final Set<String> pending = new HashSet<>();
    /** Guarded by {@code this}: kinds checked, or being checked, at least once. */
    private final Set<String> started = new HashSet<>();
    private final Set<Space> live = ConcurrentHashMap.newKeySet();

    /**
     * @param settings its {@code ready-timeout} (how long a checked Space's agent may take),
     *     {@code checks-root} (where the checks' Spaces live, one directory per app process) and
     *     {@code check-on-demand} (kinds not checked at start)
     * @throws IllegalArgumentException if {@code check-on-demand} names a kind that does not exist
     */
    public KindChecks(List<SpaceProvider> providers, AgentChannels channels,
                      SpaceSettings settings) {
        Duration readyTimeout = settings.readyTimeout();
        Path checksRoot = settings.checksRoot();
        FIRST.forEach(kind -> providers.stream().filter(p -> p.kind().equals(kind)).forEach(p -> this.providers.put(kind, p)));
        providers.forEach(p -> this.providers.putIfAbsent(p.kind(), p));
        this.onDemand = Set.copyOf(settings.checkOnDemand());
        onDemand.stream().filter(kind -> !this.providers.containsKey(kind)).findFirst().ifPresent(kind -> {
            throw new IllegalArgumentException("spacebench.space.check-on-demand names '" + kind + "', which is not a kind; "
                    + "known: " + String.join(", ", this.providers.keySet()));
        });
        this.providers.keySet().forEach(kind -> {
            statuses.put(kind, onDemand.contains(kind) ? KindStatus.notChecked(kind) : KindStatus.checking(kind));
            executors.put(kind, Executors.newSingleThreadExecutor(r -> {
                Thread thread = new Thread(r, "kind-check-" + kind);
                thread.setDaemon(true);
                return thread;
            }));
        });
        this.channels = channels;
        this.readyTimeout = readyTimeout;
        this.checksRoot = checksRoot;
        this.root = checksRoot.resolve(Long.toString(ProcessHandle.current().pid()));
    }

    /** Starts the first check of every kind not checked on demand, in the background, once the app serves. */
    @EventListener(ApplicationReadyEvent.class)
    public void checkAtStart() {
        removeLeftovers();
        synchronized (this) {
            providers.keySet().stream().filter(kind -> !started.contains(kind) && !onDemand.contains(kind)).forEach(this::queue);
        }
    }

    /** Checks every kind again, in the background; a kind shows as being checked until its check ends. */
    public synchronized void checkAll() {
        providers.keySet().stream().filter(kind -> !pending.contains(kind)).forEach(kind -> {
            statuses.put(kind, KindStatus.checking(kind));
            queue(kind);
        });
    }

    /** Every kind's status now, without waiting: {@code sandbox}, {@code process}, then the others. */
    public synchronized List<KindStatus> statuses() {
        return new ArrayList<>(statuses.values());
    }

    /** The kinds known here: {@code sandbox}, {@code process}, then the others. */
    public Set<String> kinds() {
        return providers.keySet();
    }

    /**
     * A kind's status once its check has ended, or as it is after {@code max} (still checking).
     * Starts its first check if none has (the app's ready event may not have come yet).
     *
     * @return null for an unknown kind
     */
    public synchronized KindStatus await(String kind, Duration max) {
        if (!providers.containsKey(kind)) {
            return null;
        }
        if (!started.contains(kind)) {
            queue(kind);
        }
        long deadline = System.nanoTime() + max.toNanos();
        try {
            while (statuses.get(kind).checking()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                wait(Math.max(1, left / 1_000_000));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return statuses.get(kind);
    }

    /**
     * Waits until no check is queued or running, at most as long as the slowest check may take, so
     * that a run's Space is not measured while a check makes another one.
     */
    public synchronized void awaitIdle() {
        long deadline = System.nanoTime() + readyTimeout.plus(PING_WITHIN).plusSeconds(30).toNanos();
        try {
            while (!pending.isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                wait(Math.max(1, left / 1_000_000));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void queue(String kind) {
        started.add(kind);
        pending.add(kind);
        statuses.put(kind, KindStatus.checking(kind));
        executors.get(kind).execute(() -> {
            KindStatus status = check(kind);
            synchronized (this) {
                statuses.put(kind, status);
                pending.remove(kind);
                notifyAll();
            }
        });
    }

    private KindStatus check(String kind) {
        long start = System.nanoTime();
        KindStatus status;
        try {
            status = probe(kind);
            if (status.passed()) {
                SpaceProvider provider = providers.get(kind);
                provider.checkOptions();
                provider.runtimes().forEach((runtime, found) -> log.info("kind {} with runtime {}: {}", kind, runtime,
                        found.available() ? "available" : "unavailable: " + found.reason()));
            }
        } catch (RuntimeException | LinkageError e) {
            // LinkageError: a missing native library must mark the kind unavailable, not kill the check thread.
            KindDiagnosis.Diagnosis d = KindDiagnosis.of(kind, e.toString(), KindDiagnosis::sysctl);
            status = KindStatus.failed(kind, d.reason(), d.fix(), Instant.now());
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        if (kind.equals(SpaceKinds.ATTACH)) {
            log.info("kind attach available: it makes no Space; each target is checked when a run asks for it");
        } else if (status.passed()) {
            log.info("kind {} available: made a Space and pinged its agent in {} ms", kind, ms);
        } else {
            log.info("kind {} unavailable: {}", kind, status.reasonAndFix());
        }
        return status;
    }

    private KindStatus probe(String kind) {
        SpaceProvider provider = providers.get(kind);
        if (kind.equals(SpaceKinds.ATTACH)) {
            return KindStatus.passed(kind, Instant.now());
        }
        SpaceProvider.Availability needs = provider.availability();
        if (!needs.available()) {
            return KindStatus.failed(kind, needs.reason(), needs.fix(), Instant.now());
        }
        Optional<String> noUnixSockets = AgentChannels.unixSocketsUnavailable();
        if (provider.agentOnUnixSocket() && noUnixSockets.isPresent()) {
            return unixSocketsUnavailable(kind, noUnixSockets.get());
        }
        Space space;
        try {
            Files.createDirectories(root);
            space = provider.create(root, new SpaceSpec(kind, null, null), readyTimeout);
        } catch (SpaceException | IOException e) {
            KindDiagnosis.Diagnosis d = KindDiagnosis.of(kind, e.getMessage(), KindDiagnosis::sysctl);
            return KindStatus.failed(kind, d.reason(), d.fix(), Instant.now());
        }
        live.add(space);
        try {
            if (space.target().startsWith("unix:") && noUnixSockets.isPresent()) {
                return unixSocketsUnavailable(kind, noUnixSockets.get());
            }
            Optional<String> noPing = ping(space);
            return noPing.map(why -> KindStatus.failed(kind, "a " + kind + " Space was made but its agent answered no Ping within "
                    + PING_WITHIN.toSeconds() + " s: " + why, "the Space's log in the app's log says more", Instant.now()))
                    .orElseGet(() -> KindStatus.passed(kind, Instant.now()));
        } finally {
            provider.delete(space);
            live.remove(space);
        }
    }

    private static KindStatus unixSocketsUnavailable(String kind, String why) {
        return KindStatus.failed(kind, "its agent listens on a unix socket, and " + why, KindDiagnosis.UNIX_SOCKET_FIX, Instant.now());
    }

    /** Empty once the agent answered a Ping; else the last error. */
    private Optional<String> ping(Space space) {
        try (AgentChannel channel = channels.open(space.target(), space.token(), space.bulkDir(), 1 << 20)) {
            return FirstPing.await(channel, PING_WITHIN).map(e -> e.getMessage() == null ? e.toString() : e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    /** The directories of checks whose app is gone (killed mid-check). */
    private void removeLeftovers() {
        if (!Files.isDirectory(checksRoot)) {
            return;
        }
        try (Stream<Path> dirs = Files.list(checksRoot)) {
            dirs.filter(dir -> !isLiveApp(dir.getFileName().toString())).forEach(FileTrees::deleteQuietly);
        } catch (IOException e) {
            log.warn("could not list {}: {}", checksRoot, e.toString());
        }
    }

    private static boolean isLiveApp(String name) {
        try {
            return ProcessHandle.of(Long.parseLong(name)).map(ProcessHandle::isAlive).orElse(false);
        } catch (NumberFormatException e) {
            return true; // not ours: leave it
        }
    }

    @PreDestroy
    void stop() {
        executors.values().forEach(ExecutorService::shutdownNow);
        for (Space space : new ArrayList<>(live)) {
            providers.get(space.kind()).delete(space);
        }
        FileTrees.deleteQuietly(root);
    }
}
