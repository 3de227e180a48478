package dev.spacebench.channel;

import io.grpc.Context;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Deadlines for the calls the loops time (Ping, Exec) without a timer per call: each call runs in
 * a cancellable gRPC context that one shared thread cancels, with a {@link TimeoutException}, once
 * the call has outlived its timeout. gRPC turns that cancellation into DEADLINE_EXCEEDED, as it
 * does for a call deadline.
 *
 * <p>Why: a call deadline ({@code withDeadlineAfter}) arms a timer on the channel's Netty event
 * loop for every call. Armed from the measuring thread, it writes the loop's eventfd and wakes the
 * loop once more per round trip, and allocates the timer's task; cancelled at the reply, it leaves
 * a task for the loop to drop. Measured on a 2-vCPU host (a real agent over TCP, blocks of 2,000
 * pings): 2.74–2.78 event-loop wakes per ping with a deadline, 2.00–2.09 without.
 *
 * <p>A call ends at most {@value #TICK_MS} ms after its timeout.
 */
public final class CallDeadlines {

    /** How often the shared thread looks for calls past their timeout. */
    static final long TICK_MS = 200;

    private static final Set<Watch> WATCHED = ConcurrentHashMap.newKeySet();
    private static volatile ScheduledExecutorService ticker;

    private CallDeadlines() {}

    private record Watch(Context.CancellableContext context, long deadlineNanos, Duration timeout) {}

    /**
     * Runs {@code call} (a blocking gRPC call) in a context cancelled once {@code timeout} has
     * passed; the call then throws a StatusRuntimeException with DEADLINE_EXCEEDED.
     */
    public static <T> T within(Duration timeout, Supplier<T> call) {
        startTicker();
        Context.CancellableContext context = Context.current().withCancellation();
        Watch watch = new Watch(context, System.nanoTime() + timeout.toNanos(), timeout);
        WATCHED.add(watch);
        Context previous = context.attach();
        try {
            return call.get();
        } finally {
            context.detach(previous);
            WATCHED.remove(watch);
            // Detaches it from a cancellable parent, if it has one (with none, nothing else happens).
            context.cancel(null);
        }
    }

    /** Calls being watched now (for tests: none is left behind). */
    static int watched() {
        return WATCHED.size();
    }

    private static void startTicker() {
        if (ticker == null) {
            synchronized (CallDeadlines.class) {
                if (ticker == null) {
                    ScheduledExecutorService started = Executors.newSingleThreadScheduledExecutor(runnable -> {
                        Thread thread = new Thread(runnable, "agent-call-deadlines");
                        thread.setDaemon(true);
                        return thread;
                    });
                    started.scheduleWithFixedDelay(CallDeadlines::expire, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
                    ticker = started;
                }
            }
        }
    }

    private static void expire() {
        long now = System.nanoTime();
        for (Watch watch : WATCHED) {
            if (now - watch.deadlineNanos() >= 0 && WATCHED.remove(watch)) {
                watch.context().cancel(new TimeoutException("no reply within " + watch.timeout().toMillis() + " ms"));
            }
        }
    }
}
