package dev.spacebench.fleet;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * The runs this worker has claimed and not yet finished, whose leases its heartbeat renews, and
 * those among them another worker or the server has since marked INTERRUPTED because the lease ran
 * out (this worker then stops measuring them and does not resume them).
 */
@Component
public class HeldRuns {

    private final Set<Long> held = ConcurrentHashMap.newKeySet();
    private final Set<Long> lost = ConcurrentHashMap.newKeySet();

    void hold(long runId) {
        held.add(runId);
    }

    /** Called when this worker is done with the run, however it ended. */
    public void release(long runId) {
        held.remove(runId);
        lost.remove(runId);
    }

    Set<Long> held() {
        return Set.copyOf(held);
    }

    void markLost(long runId) {
        if (held.contains(runId)) {
            lost.add(runId);
        }
    }

    /** True once the run's lease was lost: its measuring must stop. */
    public boolean lost(long runId) {
        return lost.contains(runId);
    }
}
