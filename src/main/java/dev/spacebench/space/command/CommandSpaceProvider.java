package dev.spacebench.space.command;

import dev.spacebench.channel.command.CommandAccess;
import dev.spacebench.channel.command.CommandStep;
import dev.spacebench.channel.command.CommandTarget;
import dev.spacebench.channel.command.GroupCommand;
import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceChannels;
import dev.spacebench.space.SpaceException;
import dev.spacebench.space.SpaceFacts;
import dev.spacebench.space.SpaceKinds;
import dev.spacebench.space.SpaceProvider;
import dev.spacebench.space.SpaceSpec;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The {@code command} kind: a Space an operator's own commands make, reach and remove
 * ({@link CommandTargets}, from {@code spacebench.targets-file}). A request names a target
 * ({@code space.name}) and nothing else; its Space has no agent, and its only channel is
 * {@code command} ({@code channel.command.CommandChannel}).
 *
 * <p>Create runs the target's {@code create} (when it has one) and takes the id it prints on
 * stdout; the Space is "ready" when create returned. Delete runs {@code delete} with that id. Each
 * command runs in its own process group, killed at its timeout ({@link GroupCommand}).
 */
@Component
public class CommandSpaceProvider implements SpaceProvider {

    private static final Logger log = LoggerFactory.getLogger(CommandSpaceProvider.class);
    public static final String KIND = SpaceKinds.COMMAND;
    /** The longest id a create may print. */
    static final int MAX_ID = 512;

    private final CommandTargets targets;

    public CommandSpaceProvider(CommandTargets targets) {
        this.targets = targets;
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Availability availability() {
        if (targets.names().isEmpty()) {
            return Availability.no("no command targets are defined", "name a YAML file of targets in spacebench.targets-file "
                    + "(docs/targets.example.yaml has working entries)");
        }
        if (!GroupCommand.available()) {
            return Availability.no("setsid is missing: each target command runs in a process group of its own", "apt-get install util-linux");
        }
        return Availability.yes();
    }

    /**
     * @return {@code space.name} when it is missing or names no target; {@code space.cpus} /
     *     {@code space.memoryMiB} when given (a target's commands decide its shape)
     */
    @Override
    public Map<String, String> check(SpaceSpec spec) {
        Map<String, String> problems = new LinkedHashMap<>();
        if (spec.name() == null || spec.name().isBlank()) {
            problems.put("space.name", "is required for kind command: the name of a target of the targets file, one of " + targets.names());
        } else if (targets.get(spec.name()).isEmpty()) {
            problems.put("space.name", "no target '" + abbreviated(spec.name()) + "' in the targets file"
                    + (targets.file().isEmpty() ? " (spacebench.targets-file is blank)" : " " + targets.file()) + "; the targets are "
                    + targets.names());
        }
        String noShape = "does not apply to kind 'command': the target's own commands decide its shape";
        if (spec.cpus() != null) {
            problems.put("space.cpus", noShape);
        }
        if (spec.memoryMiB() != null) {
            problems.put("space.memoryMiB", noShape);
        }
        return problems;
    }

    /** A target without both upload and download cannot move files; the reason names the missing field. */
    @Override
    public Optional<String> filesUnsupported(SpaceSpec spec) {
        return targets.get(spec.name()).filter(t -> !t.movesFiles()).map(t -> "target '" + t.name() + "' has no "
                + (t.upload() == null ? "upload" : "download") + " command in the targets file " + targets.file()
                + ": it cannot move files");
    }

    @Override
    public Optional<String> channelsUnsupported(Set<String> channels) {
        List<String> cannot = channels.stream().filter(c -> !c.equals(SpaceChannels.COMMAND)).sorted().toList();
        return cannot.isEmpty() ? Optional.empty() : Optional.of("the command kind cannot serve " + cannot
                + ": a target is reached by its commands alone (no agent, no SSH server of Spacebench's); it serves ["
                + SpaceChannels.COMMAND + "]");
    }

    @Override
    public Space create(SpaceSpec spec, Duration readyTimeout) throws SpaceException {
        return create(null, spec, readyTimeout, spec.served());
    }

    @Override
    public Space create(Path root, SpaceSpec spec, Duration readyTimeout) throws SpaceException {
        return create(root, spec, readyTimeout, spec.served());
    }

    /**
     * Runs the target's {@code create}, if it has one, and takes the id it printed.
     *
     * @throws SpaceException naming the target and what failed: no such target, create timed out
     *     (its process group killed), exited other than 0, or printed no single-line id
     */
    @Override
    public Space create(Path root, SpaceSpec spec, Duration readyTimeout, Set<String> channels) throws SpaceException {
        Optional<String> cannot = channelsUnsupported(channels);
        if (cannot.isPresent()) {
            throw new SpaceException(cannot.get());
        }
        CommandTarget target = targets.get(spec.name()).orElseThrow(() -> new SpaceException("no target '" + spec.name()
                + "' in the targets file; the targets are " + targets.names()));
        Instant createdAt = Instant.now();
        long start = System.nanoTime();
        String id = target.create() == null ? null : runCreate(target);
        long readyNanos = System.nanoTime() - start;
        SpaceFacts.Builder facts = SpaceFacts.builder("whatever the target's commands give; Spacebench runs only them, on this host")
                .network(null, "each call runs one of the target's commands on this host, in a process group of its own")
                .shape(spec.describeShape(), "none (the target's own commands decide its shape)", null)
                .bulkLane(new SpaceFacts.BulkLane(false, "none: files go through the target's upload and download commands"))
                .detail("target", target.name())
                .detail("target id", id == null ? "none (the target has no create)" : id)
                .detail("target work directory", target.workDir());
        target.commands().forEach((field, step) -> facts.detail("target " + field, shownWithTimeout(step)));
        String spaceId = KIND + "-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        return new Space(spaceId, KIND, null, null, null, createdAt, readyNanos, facts.build(), null, null, new CommandAccess(target, id));
    }

    /** The words with placeholders as the file has them, and the timeout: "podman exec {id} {argv} (timeout 60 s)". */
    static String shownWithTimeout(CommandStep step) {
        return step.shown() + " (timeout " + step.timeout().toMillis() + " ms)";
    }

    private static String runCreate(CommandTarget target) throws SpaceException {
        GroupCommand.Result result;
        try {
            result = GroupCommand.run(target.create().expand(Map.of(), List.of()), target.create().timeout());
        } catch (UncheckedIOException e) {
            throw new SpaceException("target '" + target.name() + "': its create command " + e.getMessage());
        }
        String where = "target '" + target.name() + "': its create command (" + target.create().shown() + ")";
        if (result.timedOut()) {
            throw new SpaceException(where + " did not end within " + target.create().timeout().toMillis()
                    + " ms; its process group was killed" + result.stderrHead());
        }
        if (result.exitCode() != 0) {
            throw new SpaceException(where + " exited with " + result.exitCode() + result.stderrHead());
        }
        String id = new String(result.stdout(), StandardCharsets.UTF_8).strip();
        if (id.isEmpty() || id.length() > MAX_ID || id.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
            throw new SpaceException(where + " must print the Space's id on stdout, one word of 1 to " + MAX_ID + " characters; it printed "
                    + (id.isEmpty() ? "nothing" : "'" + abbreviated(id) + "'"));
        }
        return id;
    }

    /** Runs the target's {@code delete}, if it has one; a failure is logged (delete never throws). */
    @Override
    public void delete(Space space) {
        CommandAccess access = space.command();
        CommandStep delete = access == null ? null : access.target().delete();
        if (delete == null) {
            return;
        }
        Map<String, String> values = access.id() == null ? Map.of() : Map.of(CommandStep.ID, access.id());
        try {
            GroupCommand.Result result = GroupCommand.run(delete.expand(values, List.of()), delete.timeout());
            if (result.timedOut() || result.exitCode() != 0) {
                log.warn("target '{}': its delete command for {} {}{}", access.target().name(), access.id(),
                        result.timedOut() ? "timed out (its process group was killed)" : "exited with " + result.exitCode(),
                        result.stderrHead());
            }
        } catch (RuntimeException e) {
            log.warn("target '{}': its delete command for {} failed: {}", access.target().name(), access.id(), e.toString());
        }
    }

    private static String abbreviated(String text) {
        return text.length() <= 60 ? text : text.substring(0, 60) + "…";
    }
}
