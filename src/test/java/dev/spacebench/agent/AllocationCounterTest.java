package dev.spacebench.agent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AllocationCounterTest {

    /** Kept reachable so that the JIT cannot drop the allocation. */
    static volatile byte[] sink;

    @Test
    void aThreadThatEndsKeepsItsAllocationInTheCount() throws Exception {
        AllocationCounter counter = new AllocationCounter();
        Object go = new Object();
        // A thread that allocates 8 MiB, is seen by the counter, then ends.
        Thread allocating = new Thread(() -> {
            for (int i = 0; i < 8; i++) {
                sink = new byte[1 << 20];
            }
            synchronized (go) {
                try {
                    go.wait(10_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        allocating.start();
        while (allocating.getState() != Thread.State.TIMED_WAITING) {
            Thread.sleep(5);
        }
        long seen = counter.bytes();
        synchronized (go) {
            go.notifyAll();
        }
        allocating.join();
        long after = counter.bytes();
        // A sum over live threads only would fall by the ended thread's 8 MiB here.
        assertThat(after).isGreaterThanOrEqualTo(seen);
        assertThat(seen).isGreaterThan(8L << 20);
    }
}
