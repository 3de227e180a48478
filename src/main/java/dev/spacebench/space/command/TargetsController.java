package dev.spacebench.space.command;

import dev.spacebench.channel.command.CommandTarget;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The operator-defined targets of {@code spacebench.targets-file}: what a run of kind {@code command} may name. */
@RestController
@RequestMapping("/api/targets")
@Tag(name = "targets", description = "Operator-defined command targets a run of kind command may name")
public class TargetsController {

    private final CommandTargets targets;

    public TargetsController(CommandTargets targets) {
        this.targets = targets;
    }

    @GetMapping
    @Operation(summary = "Every target of the targets file", description = "For each: its name, which commands it has with "
            + "their timeouts in ms, and whether it can move files (upload and download). The commands' words are not listed here: "
            + "a run's page shows them as part of its method. Empty when spacebench.targets-file is blank.")
    public Targets list() {
        return new Targets(targets.all().stream().map(TargetsController::view).toList());
    }

    static Target view(CommandTarget target) {
        Map<String, Long> timeouts = target.commands().entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                e -> e.getValue().timeout().toMillis(), (a, b) -> a, java.util.LinkedHashMap::new));
        return new Target(target.name(), List.copyOf(timeouts.keySet()), timeouts, target.movesFiles());
    }

    /** @param targets in the file's order */
    public record Targets(List<Target> targets) {
    }

    /**
     * @param name what a run gives as {@code space.name}
     * @param commands the commands it has, of create, exec, upload, download, delete
     * @param timeoutsMs each command's timeout in ms, after which its process group is killed
     * @param files whether it moves files (has both upload and download): without, a run's file metrics are skipped
     */
    public record Target(String name, List<String> commands, Map<String, Long> timeoutsMs, boolean files) {
    }
}
