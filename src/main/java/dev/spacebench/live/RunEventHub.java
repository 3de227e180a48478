package dev.spacebench.live;

import dev.spacebench.run.Run;
import dev.spacebench.run.RunRepository;
import dev.spacebench.run.RunService;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Pushes {@link LiveRun}s to open server-sent event streams. One thread polls the database every
 * {@value #TICK_MS} ms for all streams together, and only while a stream is open. Polling the
 * database rather than listening inside this app is deliberate: the bench command and other
 * machines' workers write progress into the same database, and their runs must show too.
 *
 * <p>Each stream gets a run's state once when it opens and again whenever it changes; a run's
 * last event has {@code finished: true}. A stream of one run ends after that event.
 */
@Component
@ConditionalOnWebApplication
public class RunEventHub {

    static final long TICK_MS = 250;
    /** A comment line this often finds streams whose browser has gone, and keeps proxies from closing idle ones. */
    private static final long HEARTBEAT_NS = Duration.ofSeconds(15).toNanos();
    /** Browsers reconnect by themselves when a stream ends; this bounds how long a forgotten one holds a thread's state. */
    private static final long STREAM_TIMEOUT_MS = Duration.ofMinutes(30).toMillis();

    private static final Logger log = LoggerFactory.getLogger(RunEventHub.class);

    private final RunService service;
    private final RunRepository runs;
    private final LiveRuns live;
    private final List<Subscriber> streams = new CopyOnWriteArrayList<>();
    // A thread of its own: a slow client must never delay the worker's scheduled polling.
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "run-events");
        t.setDaemon(true);
        return t;
    });
    private Set<Long> activeLastTick = Set.of();
    private long lastHeartbeat = System.nanoTime();

    public RunEventHub(RunService service, RunRepository runs, LiveRuns live) {
        this.service = service;
        this.runs = runs;
        this.live = live;
        ticker.scheduleWithFixedDelay(this::tickSafely, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
    }

    /** A stream of every QUEUED and RUNNING run, and of each one's final state. */
    public SseEmitter all() {
        return open(null);
    }

    /** A stream of one run; it ends after the run's final state. The caller checks that the run exists. */
    public SseEmitter one(long runId) {
        return open(runId);
    }

    private SseEmitter open(Long runId) {
        SseEmitter emitter = new SseEmitter(STREAM_TIMEOUT_MS);
        Subscriber stream = new Subscriber(emitter, runId, new ConcurrentHashMap<>());
        emitter.onCompletion(() -> streams.remove(stream));
        emitter.onTimeout(() -> streams.remove(stream));
        emitter.onError(e -> streams.remove(stream));
        // The first state goes out with the next tick, so only the ticker thread ever writes to a stream.
        streams.add(stream);
        return emitter;
    }

    private void tickSafely() {
        try {
            tick();
        } catch (RuntimeException e) {
            // An exception would cancel the schedule for good; one bad tick must not end live updates.
            log.warn("live run events: tick failed: {}", e.toString());
        }
    }

    void tick() {
        if (streams.isEmpty()) {
            activeLastTick = Set.of();
            return;
        }
        Map<Long, Run> watched = new HashMap<>();
        service.active().forEach(r -> watched.put(r.getId(), r));
        Set<Long> active = new HashSet<>(watched.keySet());
        Set<Long> missing = new HashSet<>(activeLastTick);
        streams.stream().filter(s -> s.runId() != null).forEach(s -> missing.add(s.runId()));
        missing.removeAll(watched.keySet());
        if (!missing.isEmpty()) {
            runs.findAllById(missing).forEach(r -> watched.put(r.getId(), r));
        }
        Map<Long, LiveRun> built = new HashMap<>();
        for (Subscriber stream : streams) {
            send(stream, watched, active, built);
        }
        activeLastTick = active;
        heartbeat();
    }

    private void send(Subscriber stream, Map<Long, Run> watched, Set<Long> active, Map<Long, LiveRun> built) {
        for (Run run : watched.values()) {
            boolean wanted = stream.runId() == null
                    ? active.contains(run.getId()) || activeLastTick.contains(run.getId())
                    : stream.runId() == run.getId();
            String fingerprint = LiveRuns.fingerprint(run);
            if (!wanted || fingerprint.equals(stream.sent().get(run.getId()))) {
                continue;
            }
            LiveRun view = built.computeIfAbsent(run.getId(), id -> live.of(run));
            try {
                stream.emitter().send(SseEmitter.event().name("run").id(Long.toString(view.id())).data(view, MediaType.APPLICATION_JSON));
                stream.sent().put(run.getId(), fingerprint);
            } catch (IOException | IllegalStateException e) {
                streams.remove(stream);
                return;
            }
            if (stream.runId() != null && view.finished()) {
                stream.emitter().complete();
                streams.remove(stream);
                return;
            }
        }
    }

    private void heartbeat() {
        long now = System.nanoTime();
        if (now - lastHeartbeat < HEARTBEAT_NS) {
            return;
        }
        lastHeartbeat = now;
        for (Subscriber stream : streams) {
            try {
                stream.emitter().send(SseEmitter.event().comment("keep-alive"));
            } catch (IOException | IllegalStateException e) {
                streams.remove(stream);
            }
        }
    }

    /**
     * Ends every stream as soon as the app starts to close: an open stream is an active request,
     * and the web server's graceful shutdown (which runs before beans are destroyed) would wait
     * for it until its timeout. Browsers reconnect by themselves once the app is back.
     */
    @EventListener(ContextClosedEvent.class)
    void stop() {
        ticker.shutdownNow();
        streams.forEach(s -> s.emitter().complete());
        streams.clear();
    }

    /**
     * @param runId the one run this stream follows, or null for every active run
     * @param sent per run, the fingerprint of the state last sent
     */
    private record Subscriber(SseEmitter emitter, Long runId, Map<Long, String> sent) {
    }
}
