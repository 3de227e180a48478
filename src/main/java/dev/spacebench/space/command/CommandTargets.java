package dev.spacebench.space.command;

import dev.spacebench.channel.command.CommandTarget;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The targets of {@code spacebench.targets-file}, read once when the app starts: a bad file stops
 * the start ({@link TargetsFileException}), so a run never meets one.
 */
@Component
public class CommandTargets {

    private static final Logger log = LoggerFactory.getLogger(CommandTargets.class);

    private final String file;
    private final Map<String, CommandTarget> targets;

    public CommandTargets(TargetsSettings settings) {
        this.file = settings.targetsFile();
        this.targets = file.isEmpty() ? Map.of() : TargetsFile.read(Path.of(file));
        if (!file.isEmpty()) {
            log.info("targets file {}: {} target(s) {}", file, targets.size(), targets.keySet());
        }
    }

    /** The file read, or empty when none is configured. */
    public String file() {
        return file;
    }

    /** The target names, in the file's order. */
    public List<String> names() {
        return List.copyOf(targets.keySet());
    }

    public List<CommandTarget> all() {
        return List.copyOf(targets.values());
    }

    public Optional<CommandTarget> get(String name) {
        return Optional.ofNullable(name == null ? null : targets.get(name));
    }
}
