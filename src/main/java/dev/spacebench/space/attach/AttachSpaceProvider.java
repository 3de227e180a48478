package dev.spacebench.space.attach;

import dev.spacebench.space.AttachTokens;
import dev.spacebench.space.SpaceFacts;
import dev.spacebench.space.Retry;
import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceException;
import dev.spacebench.space.SpaceKinds;
import dev.spacebench.space.SpaceProvider;
import dev.spacebench.space.SpaceSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.stereotype.Component;

/**
 * The {@code attach} kind: an agent someone else started (in a VM, on a board, in a container this
 * app does not manage), reached at {@link SpaceSpec#target()} with {@link SpaceSpec#token()}, and
 * optionally a host directory the agent uses as its bulk lane ({@link SpaceSpec#bulkDir()}).
 *
 * <p>At submit ({@link #check}) and again at create the agent is asked, with 5 s deadlines,
 * whether it answers and takes the token ({@link AttachProbe}); a bulk directory is used only when
 * it holds the {@code .spacebench-bulk-id} value the agent reports in its Info, i.e. when the
 * agent itself wrote into it; otherwise the run is refused naming {@code space.bulkDir}. Create
 * waits at most {@link #CONNECT_TIMEOUT} for a connection, not the kinds' ready timeout: the agent
 * is meant to be running already. Delete closes nothing of the agent's and never stops it: this
 * app did not start it. The shape asked for is recorded but cannot be enforced. The token is
 * stored with the run sealed ({@link AttachTokens}).
 */
@Component
public class AttachSpaceProvider implements SpaceProvider {

    public static final String KIND = SpaceKinds.ATTACH;
    /** How long create waits for the agent to accept a connection. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Availability availability() {
        return Availability.yes();
    }

    /**
     * Refuses what is malformed, then asks the agent (see {@link AttachProbe}).
     *
     * @return field → problem: {@code space.target} (malformed, off loopback, or no agent answers
     *     within 5 s), {@code space.token} (missing or refused), {@code space.bulkDir} (not a
     *     directory, or not the agent's bulk directory)
     */
    @Override
    public Map<String, String> check(SpaceSpec spec) {
        Map<String, String> problems = new LinkedHashMap<>();
        AttachTarget target = null;
        try {
            target = AttachTarget.parse(spec.target());
        } catch (SpaceException e) {
            problems.put("space.target", e.getMessage());
        }
        if (spec.token() == null || spec.token().isBlank()) {
            problems.put("space.token", "is required for attach: the token the running agent was started with");
        }
        Path bulk = null;
        try {
            bulk = bulkDir(spec);
        } catch (SpaceException e) {
            problems.put("space.bulkDir", e.getMessage());
        }
        if (problems.isEmpty()) {
            problems.putAll(AttachProbe.check(target, spec.token(), bulk));
        }
        return problems;
    }

    /**
     * @throws SpaceException if target or token are missing or malformed, the target is not on
     *     loopback or a unix socket, nothing accepts a connection at the target within
     *     {@link #CONNECT_TIMEOUT} (or {@code readyTimeout} if shorter), the agent refuses the
     *     token, or the bulk directory is not the agent's
     */
    @Override
    public Space create(SpaceSpec spec, Duration readyTimeout) throws SpaceException {
        Instant createdAt = Instant.now();
        long start = System.nanoTime();
        AttachTarget target = AttachTarget.parse(spec.target());
        if (spec.token() == null || spec.token().isBlank()) {
            throw new SpaceException("the attach kind needs space.token: the token the running agent was started with");
        }
        String token = AttachTokens.open(spec.token());
        Path bulk = bulkDir(spec);
        awaitConnectable(target, readyTimeout.compareTo(CONNECT_TIMEOUT) < 0 ? readyTimeout : CONNECT_TIMEOUT);
        Map<String, String> problems = AttachProbe.check(target, token, bulk);
        if (!problems.isEmpty()) {
            throw new SpaceException(String.join("; ", problems.entrySet().stream().map(p -> p.getKey() + ": " + p.getValue()).toList()));
        }
        long readyNanos = System.nanoTime() - start;

        String id = KIND + "-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        SpaceFacts facts = SpaceFacts.builder("whatever the agent's own environment gives; this app started nothing")
                .network(target.socket() != null ? SpaceFacts.Transport.UNIX_SOCKET : SpaceFacts.Transport.LOOPBACK_TCP,
                        target.socket() != null ? "unix socket " + target.socket() : "loopback TCP " + target.grpcTarget())
                .bulkLane(bulk == null ? SpaceFacts.BulkLane.NONE
                        : SpaceFacts.BulkLane.at(bulk, "checked: it holds the id the agent reports for its bulk directory"))
                .shape(spec.describeShape(), "none (the agent was started elsewhere; attach limits nothing)", null)
                .build();
        return new Space(id, KIND, target.grpcTarget(), token, bulk, createdAt, readyNanos, facts);
    }

    /** The named bulk directory as its real path (links resolved once, here), or null when none is named. */
    private static Path bulkDir(SpaceSpec spec) throws SpaceException {
        if (spec.bulkDir() == null || spec.bulkDir().isBlank()) {
            return null;
        }
        Path given;
        try {
            given = Path.of(spec.bulkDir());
        } catch (java.nio.file.InvalidPathException e) {
            throw new SpaceException("is not a valid path: " + e.getReason());
        }
        if (!given.isAbsolute() || !Files.isDirectory(given)) {
            throw new SpaceException("must be an absolute path of a directory on this host shared with the Space, was '"
                    + spec.bulkDir() + "'");
        }
        try {
            return given.toRealPath();
        } catch (IOException e) {
            throw new SpaceException("cannot be resolved on this host: " + e.getMessage());
        }
    }

    private static void awaitConnectable(AttachTarget target, Duration timeout) throws SpaceException {
        Optional<Exception> failed;
        try {
            failed = Retry.untilDeadline(timeout, Duration.ofMillis(50), target::probe);
        } catch (InterruptedException e) {
            throw new SpaceException("interrupted while waiting for the agent at " + target.grpcTarget());
        }
        if (failed.isPresent()) {
            throw new SpaceException("no agent accepts connections at " + target.grpcTarget() + " within " + timeout.toMillis()
                    + " ms: " + failed.get().getMessage());
        }
    }

    /** Nothing to stop or remove: the agent and its files belong to whoever started it. */
    @Override
    public void delete(Space space) {
        // The channels to the agent are the caller's and closed by it.
    }
}
