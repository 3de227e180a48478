package dev.spacebench.agent;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;

/**
 * Heap bytes this JVM's threads have allocated, as a count that never goes down. The JDK's
 * per-thread counts (com.sun.management.ThreadMXBean, JDK 17 has no total) vanish with their
 * thread, so a plain sum over the live threads falls whenever a pool thread ends; here a thread
 * that ended keeps the last count seen for it (what it allocated after that last look is missed).
 */
final class AllocationCounter {

    private final Map<Long, Long> lastSeen = new HashMap<>();
    private long ended;

    /** @return bytes allocated so far by threads seen, never less than the call before; 0 where the JVM does not count */
    synchronized long bytes() {
        if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads)
                || !threads.isThreadAllocatedMemorySupported() || !threads.isThreadAllocatedMemoryEnabled()) {
            return 0;
        }
        long[] ids = threads.getAllThreadIds();
        long[] bytes = threads.getThreadAllocatedBytes(ids);
        Map<Long, Long> now = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            if (bytes[i] >= 0) {
                now.put(ids[i], bytes[i]);
            }
        }
        lastSeen.forEach((id, last) -> {
            if (!now.containsKey(id)) {
                ended += last;
            }
        });
        lastSeen.clear();
        lastSeen.putAll(now);
        long live = 0;
        for (long b : now.values()) {
            live += b;
        }
        return ended + live;
    }
}
