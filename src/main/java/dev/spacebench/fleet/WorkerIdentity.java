package dev.spacebench.fleet;

import dev.spacebench.run.TestbedCheck;
import java.net.InetAddress;
import java.time.Duration;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * Who this app's worker is in the fleet: its testbed (the machine's name as runs and pages show it,
 * {@code spacebench.worker.testbed}, default the host name), its worker id (written into the runs it
 * claims, {@code spacebench.worker.id}, default the testbed), how long a claimed run's lease lasts
 * without a heartbeat ({@code spacebench.worker.lease}, default 30 s) and how often it heartbeats
 * ({@code spacebench.worker.heartbeat}, default 5 s, at most a third of the lease).
 *
 * @throws IllegalArgumentException (at start) for a testbed name outside {@link #NAME} or a
 *     heartbeat too slow for its lease
 */
@Component
public class WorkerIdentity {

    /** What a testbed name may be: letters, digits, dot, dash, underscore; 1 to 64 of them ({@link TestbedCheck#NAME}). */
    public static final Pattern NAME = TestbedCheck.NAME;

    private final String testbed;
    private final String workerId;
    private final Duration lease;
    private final Duration heartbeat;
    private final boolean enabled;

    public WorkerIdentity(WorkerSettings settings) {
        String testbed = settings.testbed();
        String workerId = settings.id();
        Duration lease = settings.lease();
        Duration heartbeat = settings.heartbeat();
        boolean enabled = settings.enabled();
        this.testbed = blank(testbed) ? hostName() : testbed.strip();
        if (!NAME.matcher(this.testbed).matches()) {
            throw new IllegalArgumentException("spacebench.worker.testbed must be 1 to 64 letters, digits, '.', '-' or '_', was '"
                    + this.testbed + "'");
        }
        this.workerId = blank(workerId) ? this.testbed : workerId.strip();
        if (heartbeat.isZero() || heartbeat.isNegative() || heartbeat.multipliedBy(3).compareTo(lease) > 0) {
            throw new IllegalArgumentException("spacebench.worker.heartbeat must be more than 0 and at most a third of "
                    + "spacebench.worker.lease (" + lease.toMillis() + " ms), was " + heartbeat.toMillis() + " ms");
        }
        this.lease = lease;
        this.heartbeat = heartbeat;
        this.enabled = enabled;
    }

    public String testbed() {
        return testbed;
    }

    public String workerId() {
        return workerId;
    }

    public Duration lease() {
        return lease;
    }

    public Duration heartbeat() {
        return heartbeat;
    }

    /** False when this app takes no runs ({@code spacebench.worker.enabled=false}). */
    public boolean enabled() {
        return enabled;
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }

    /** The host name cut to a testbed name's alphabet and length. */
    private static String hostName() {
        String name;
        try {
            name = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            name = "worker";
        }
        String cut = name.replaceAll("[^A-Za-z0-9._-]", "-");
        return cut.isEmpty() ? "worker" : cut.substring(0, Math.min(64, cut.length()));
    }
}
