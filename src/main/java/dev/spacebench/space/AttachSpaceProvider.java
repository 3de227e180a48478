package dev.spacebench.space;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.stereotype.Component;

/**
 * The {@code attach} kind: an agent someone else started (in a VM, on a board, in a container this
 * app does not manage), reached at {@link SpaceSpec#target()} with {@link SpaceSpec#token()}, and
 * optionally a host directory the agent uses as its bulk lane ({@link SpaceSpec#bulkDir()}).
 *
 * <p>Create waits until the target accepts a connection; the first Ping then checks the token.
 * Delete closes nothing of the agent's and never stops it: this app did not start it. The shape
 * asked for is recorded but cannot be enforced.
 */
@Component
public class AttachSpaceProvider implements SpaceProvider {

    public static final String KIND = "attach";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Availability availability() {
        return Availability.yes();
    }

    /**
     * @throws SpaceException if target or token are missing or malformed, the target is not on
     *     loopback or a unix socket, the bulk directory is not a directory, or nothing accepts a
     *     connection at the target within {@code readyTimeout}
     */
    @Override
    public Map<String, String> check(SpaceSpec spec) {
        Map<String, String> problems = new LinkedHashMap<>();
        try {
            AttachTarget.parse(spec.target());
        } catch (SpaceException e) {
            problems.put("space.target", e.getMessage());
        }
        if (spec.token() == null || spec.token().isBlank()) {
            problems.put("space.token", "is required for attach: the token the running agent was started with");
        }
        if (spec.bulkDir() != null && !spec.bulkDir().isBlank() && !Files.isDirectory(Path.of(spec.bulkDir()))) {
            problems.put("space.bulkDir", "must be a directory on this host shared with the Space, was '" + spec.bulkDir() + "'");
        }
        return problems;
    }

    @Override
    public Space create(SpaceSpec spec, Duration readyTimeout) throws SpaceException {
        Instant createdAt = Instant.now();
        long start = System.nanoTime();
        AttachTarget target = AttachTarget.parse(spec.target());
        if (spec.token() == null || spec.token().isBlank()) {
            throw new SpaceException("the attach kind needs space.token: the token the running agent was started with");
        }
        Path bulk = null;
        if (spec.bulkDir() != null && !spec.bulkDir().isBlank()) {
            bulk = Path.of(spec.bulkDir()).toAbsolutePath().normalize();
            if (!Files.isDirectory(bulk)) {
                throw new SpaceException("space.bulkDir " + bulk + " is not a directory on this host");
            }
        }
        awaitConnectable(target, readyTimeout);
        long readyNanos = System.nanoTime() - start;

        String id = KIND + "-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("isolation", "whatever the agent's own environment gives; this app started nothing");
        facts.put("network", target.socket() != null ? "unix socket " + target.socket() : "loopback TCP " + target.grpcTarget());
        facts.put("bulk lane", bulk == null ? "none: every file goes through the stream" : bulk.toString());
        facts.put("shape asked", spec.describeShape());
        facts.put("shape enforced", "none (the agent was started elsewhere; attach limits nothing)");
        return new Space(id, KIND, target.grpcTarget(), spec.token(), bulk, createdAt, readyNanos, facts);
    }

    private static void awaitConnectable(AttachTarget target, Duration timeout) throws SpaceException {
        long deadline = System.nanoTime() + timeout.toNanos();
        IOException last;
        do {
            try {
                target.probe();
                return;
            } catch (IOException e) {
                last = e;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SpaceException("interrupted while waiting for the agent at " + target.grpcTarget());
            }
        } while (System.nanoTime() < deadline);
        throw new SpaceException("no agent accepts connections at " + target.grpcTarget() + " within " + timeout.toMillis()
                + " ms: " + last.getMessage());
    }

    /** Nothing to stop or remove: the agent and its files belong to whoever started it. */
    @Override
    public void delete(Space space) {
        // The channels to the agent are the caller's and closed by it.
    }
}
