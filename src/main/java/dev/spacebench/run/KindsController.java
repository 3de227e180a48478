package dev.spacebench.run;

import dev.spacebench.space.KindStatus;
import dev.spacebench.space.Spaces;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import dev.spacebench.space.SpaceProvider;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Which kinds of Space can run here, as their checks found (see {@code space.KindChecks}). */
@RestController
@RequestMapping("/api/kinds")
@Tag(name = "kinds", description = "Which kinds of Space this host can make, and why not")
public class KindsController {

    private final Spaces spaces;
    private final RunService runs;

    public KindsController(Spaces spaces, RunService runs) {
        this.spaces = spaces;
        this.runs = runs;
    }

    @GetMapping
    @Operation(summary = "Every kind with what its last check found", description = "available: true (a check made a "
            + "Space of the kind and pinged its agent), false (see reason and fix) or null while it is being checked; "
            + "checkedAt: when the last check ended. runtimes: for the container kind, runc and runsc (gVisor) with whether each runs here. channels: per kind, each channel \"available\" or \"not available: why\" (e.g. the sandbox's ssh). defaultKind: what a run that names no kind gets now (null while sandbox is being checked).")
    public Kinds list() {
        return kinds();
    }

    @PostMapping("/check")
    @Operation(summary = "Check every kind again", description = "Answers 202 at once, each kind being checked; "
            + "GET /api/kinds shows the results as the checks end.")
    public ResponseEntity<Kinds> check() {
        spaces.checkKindsAgain();
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(kinds());
    }

    private Kinds kinds() {
        return new Kinds(runs.defaultKind(), List.copyOf(spaces.kinds().values()), spaces.runtimes(), spaces.channels());
    }

    /**
     * @param defaultKind the kind a run that names none gets now (the configured one, else sandbox
     *     where its check passed, else process); null while sandbox is still being checked
     * @param kinds each kind, in the order the dashboard lists them
     * @param runtimes per kind with a choice of OCI runtime ({@code space.runtime}, the container kind): each runtime
     *     with whether it runs here, and why not (its reason and fix)
     * @param channels per kind, each channel ({@code agent}, {@code ssh}, …): {@code "available"}, or
     *     {@code "not available: "} and why (what a run asking for it gets as its 400 on {@code channels})
     */
    public record Kinds(String defaultKind, List<KindStatus> kinds, Map<String, Map<String, SpaceProvider.Availability>> runtimes,
                        Map<String, Map<String, String>> channels) {
    }
}
