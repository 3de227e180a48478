package dev.spacebench.dashboard;

import dev.spacebench.fleet.WorkerView;
import dev.spacebench.fleet.Workers;
import dev.spacebench.live.LiveRun;
import dev.spacebench.live.LiveRuns;
import dev.spacebench.plan.ExecMetric;
import dev.spacebench.plan.PlanPreset;
import dev.spacebench.publish.RunSummaries;
import dev.spacebench.run.RunService;
import dev.spacebench.run.RunStatus;
import dev.spacebench.space.SpaceChannels;
import dev.spacebench.space.Spaces;
import dev.spacebench.space.command.CommandTargets;
import dev.spacebench.space.attach.AttachSpaceProvider;
import dev.spacebench.space.sandbox.SandboxSpaceProvider;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;
import org.springframework.ui.Model;
import tools.jackson.databind.json.JsonMapper;

/** Gathers what the dashboard shows: the form's choices, the queue, the running runs and the latest results. */
@Component
class DashboardData {

    static final int LATEST = 10;

    private final RunService runs;
    private final LiveRuns live;
    private final RunSummaries summaries;
    private final Spaces spaces;
    private final JsonMapper json;
    private final Workers workers;
    private final CommandTargets targets;

    DashboardData(RunService runs, LiveRuns live, RunSummaries summaries, Spaces spaces, JsonMapper json, Workers workers,
                  CommandTargets targets) {
        this.targets = targets;
        this.runs = runs;
        this.live = live;
        this.summaries = summaries;
        this.spaces = spaces;
        this.json = json;
        this.workers = workers;
    }

    /**
     * @param available false when the form cannot start a Space of this kind: its check could not
     *     make one here, or it needs more than the form asks for
     * @param checking true while its check runs (it can be chosen: the run waits for the check)
     * @param reason why not (empty when available)
     * @param fix what to do about it (empty when none is known)
     */
    record KindOption(String name, boolean available, boolean checking, String reason, String fix) {
    }

    /**
     * A channel the form offers.
     *
     * @param served whether the form's kind serves it (else its box is disabled)
     * @param kinds the kinds that serve it, e.g. "process, sandbox"
     */
    record ChannelOption(String name, boolean served, String kinds) {
    }

    /** The parts of the page that change by themselves, and are pushed by server-sent events. */
    record Live(List<LiveRun> queue, List<LiveRun> running, List<RunSummaries.RunSummary> latest) {
    }

    Live live() {
        List<LiveRun> active = live.active();
        return new Live(
                active.stream().filter(r -> r.status().equals(RunStatus.QUEUED.name())).toList(),
                active.stream().filter(r -> r.status().equals(RunStatus.RUNNING.name())).toList(),
                runs.latestFinished(LATEST).stream().map(summaries::of).toList());
    }

    /**
     * Everything the dashboard template reads.
     *
     * @param errors form input name → message (see {@link FormErrors})
     * @param notice one line above the form, e.g. "Run #4 queued."; null for none
     * @param refreshSeconds a meta refresh for browsers without JavaScript; null for none
     */
    void fill(Model model, RunForm form, Map<String, String> errors, String notice, Integer refreshSeconds) {
        model.addAttribute("form", form);
        model.addAttribute("errors", errors);
        model.addAttribute("notice", notice);
        model.addAttribute("refreshSeconds", refreshSeconds);
        model.addAttribute("kinds", kinds());
        model.addAttribute("targets", targets.names());
        model.addAttribute("channels", channels(form.kind()));
        model.addAttribute("presets", PlanPreset.values());
        model.addAttribute("presetsJson", presetsJson());
        model.addAttribute("metrics", ExecMetric.values());
        model.addAttribute("live", live());
        List<WorkerView> registered = workers.list();
        model.addAttribute("workers", registered);
        model.addAttribute("testbeds", registered.stream().filter(WorkerView::live).map(WorkerView::testbed).distinct().sorted().toList());
    }

    RunForm freshForm(String kind, Double cpus, Long memoryMiB, String presetId) {
        PlanPreset preset = PlanPreset.byId(presetId).orElse(PlanPreset.QUICK);
        String defaultKind = runs.defaultKind();
        // null: sandbox is still being checked; offer it (marked checking…), as a run of it waits for the check.
        String chosen = kind != null && !kind.isBlank() ? kind : defaultKind != null ? defaultKind : SandboxSpaceProvider.KIND;
        return RunForm.withPreset(preset, chosen, cpus, memoryMiB);
    }

    private List<KindOption> kinds() {
        return spaces.kinds().values().stream().map(k -> {
            if (k.kind().equals(AttachSpaceProvider.KIND) && !k.failed()) {
                // Its Space is an agent already running elsewhere: the form has no inputs for its address and token.
                return new KindOption(k.kind(), false, false, "attaches to an agent you started, by address and token: "
                        + "POST /api/runs with space.target and space.token (docs/kinds.md, Attach)", "");
            }
            return new KindOption(k.kind(), !k.failed(), k.checking(), k.reason(), k.fix());
        }).toList();
    }

    /** Every channel, served or not by {@code kind} (the form's), with the kinds that serve it. */
    private List<ChannelOption> channels(String kind) {
        return SpaceChannels.KNOWN.stream().map(channel -> {
            List<String> by = spaces.kinds().keySet().stream().filter(k -> spaces.serves(k, channel)).toList();
            return new ChannelOption(channel, by.contains(kind), String.join(", ", by));
        }).toList();
    }

    /** Each preset's form numbers, for the script that fills the form when the preset changes. */
    private String presetsJson() {
        Map<String, RunForm> forms = new LinkedHashMap<>();
        Arrays.stream(PlanPreset.values()).forEach(p -> forms.put(p.id(), RunForm.withPreset(p, null, null, null)));
        return json.writeValueAsString(forms);
    }
}
