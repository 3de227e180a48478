package dev.spacebench.dashboard;

import dev.spacebench.plan.ConcurrencyPlan;
import dev.spacebench.plan.ExecPlan;
import dev.spacebench.plan.FilePlan;
import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.FloorPlan;
import dev.spacebench.plan.Shown;
import dev.spacebench.plan.Plan;
import dev.spacebench.plan.PlanPreset;
import dev.spacebench.request.FieldError;
import dev.spacebench.run.CompareEntry;
import dev.spacebench.run.RunRequest;
import dev.spacebench.space.SpaceChannels;
import dev.spacebench.space.SpaceKinds;
import dev.spacebench.space.SpaceSpec;
import java.util.ArrayList;
import java.util.List;
import org.springframework.validation.BindingResult;

/**
 * The dashboard's start form as posted ({@code application/x-www-form-urlencoded}). Blank numbers
 * take the published defaults, as in the REST API.
 *
 * @param kind Space kind; blank: the configured default
 * @param cpus CPUs asked for; blank: no limit
 * @param memoryMiB memory asked for in MiB; blank: no limit
 * @param preset a {@link PlanPreset} id; only used to fill the numbers below, which are what runs
 * @param metrics exec metric wire names ticked. The form always sends one empty value as well, so
 *     that "none ticked" (only blanks) differs from "not sent" (null)
 * @param fileSizes e.g. {@code 1MiB:20, 4MiB:20} (see {@link FileSizesText}); blank: no files
 * @param floor {@value #FLOOR_ON} (the default: the bare floor is measured first, with the exec
 *     loops' n and warm-ups) or {@value #FLOOR_OFF}
 * @param testbed the testbed to measure on; blank: any live worker that can make the kind
 * @param sweepLevels a concurrency sweep's levels (busy Spaces), e.g. {@code 1, 2, 4, 8}; blank: no
 *     sweep. The sweep runs the ticked round trips
 * @param sweepN a sweep's measured iterations per Space; blank: the REST default
 * @param compare a comparison run's Spaces (issue 29), e.g. {@code A=process, B=sandbox} or {@code process, sandbox}
 *     (a KIND alone is its own label); blank: one Space of {@code kind}. With it, {@code kind} and {@code name} are not used,
 *     and {@code cpus}, {@code memoryMiB} and the ticked {@code channels} apply to every entry
 * @param name kind command only: the target of the targets file; blank: none
 * @param channels the channels ticked (the form also sends one empty value); null or none ticked: the kind's default
 */
public record RunForm(String kind, Double cpus, Long memoryMiB, String preset, Integer execN, Integer execWarmups,
                      List<String> metrics, String fileSizes, Integer fileWarmups, String floor, String testbed,
                      String sweepLevels, Integer sweepN, String compare, String name, List<String> channels) {

    static final String COMPARE = "compare";

    /** A form of one Space of an agent's kind, its default channels. */
    public RunForm(String kind, Double cpus, Long memoryMiB, String preset, Integer execN, Integer execWarmups,
                   List<String> metrics, String fileSizes, Integer fileWarmups, String floor, String testbed,
                   String sweepLevels, Integer sweepN) {
        this(kind, cpus, memoryMiB, preset, execN, execWarmups, metrics, fileSizes, fileWarmups, floor, testbed, sweepLevels, sweepN,
                null, null, null);
    }

    /** A form with a comparison (or none, when {@code compare} is null), each Space's default channels. */
    public RunForm(String kind, Double cpus, Long memoryMiB, String preset, Integer execN, Integer execWarmups,
                   List<String> metrics, String fileSizes, Integer fileWarmups, String floor, String testbed,
                   String sweepLevels, Integer sweepN, String compare) {
        this(kind, cpus, memoryMiB, preset, execN, execWarmups, metrics, fileSizes, fileWarmups, floor, testbed, sweepLevels, sweepN,
                compare, null, null);
    }

    /** A form of one Space with a target's name and the channels ticked, without a comparison. */
    public RunForm(String kind, Double cpus, Long memoryMiB, String preset, Integer execN, Integer execWarmups,
                   List<String> metrics, String fileSizes, Integer fileWarmups, String floor, String testbed,
                   String sweepLevels, Integer sweepN, String name, List<String> channels) {
        this(kind, cpus, memoryMiB, preset, execN, execWarmups, metrics, fileSizes, fileWarmups, floor, testbed, sweepLevels, sweepN,
                null, name, channels);
    }

    static final String FLOOR_ON = "on";
    static final String FLOOR_OFF = "off";
    static final String SWEEP_LEVELS = "sweepLevels";
    /** Longer than 32 levels of 64 ever need; the REST limits then name what is wrong. */
    static final int SWEEP_LEVELS_MAX_CHARS = 400;
    private static final java.util.regex.Pattern LEVEL_SEPARATOR = java.util.regex.Pattern.compile("[,\\s]+");

    /** A form showing the preset's numbers, with the given Space part (any of it may be null). */
    static RunForm withPreset(PlanPreset preset, String kind, Double cpus, Long memoryMiB) {
        Plan plan = preset.plan();
        return new RunForm(kind, cpus, memoryMiB, preset.id(), plan.exec().n(), plan.exec().warmups(), plan.exec().metrics(),
                FileSizesText.format(plan.files().sizes()), plan.files().warmups(),
                plan.floor() == null || plan.floor().enabled() ? FLOOR_ON : FLOOR_OFF, null,
                plan.concurrency() == null || plan.concurrency().levels() == null ? null
                        : String.join(", ", plan.concurrency().levels().stream().map(String::valueOf).toList()),
                plan.concurrency() == null ? null : plan.concurrency().n(), null, null, null);
    }

    /** Whether the channel's box is ticked: as sent, else the kind's default ({@code command} for command, else {@code agent}). */
    public boolean channelTicked(String channel) {
        List<String> ticked = tickedChannels();
        if (ticked == null) {
            return channel.equals(SpaceKinds.reachedByCommands(kind) ? SpaceChannels.COMMAND : SpaceChannels.AGENT);
        }
        return ticked.contains(channel);
    }

    /** The channels ticked, without the form's empty value; null when none was. */
    private List<String> tickedChannels() {
        List<String> ticked = channels == null ? List.of() : channels.stream().filter(c -> c != null && !c.isBlank()).map(String::strip).toList();
        return ticked.isEmpty() ? null : ticked;
    }

    /** This form with the target and channels chosen (a fresh form keeps what the visit named). */
    RunForm withTarget(String target, List<String> ticked) {
        return new RunForm(kind, cpus, memoryMiB, preset, execN, execWarmups, metrics, fileSizes, fileWarmups, floor, testbed, sweepLevels,
                sweepN, compare, target, ticked);
    }

    /** True when no plan field was sent at all (a fresh visit). */
    boolean planUnset() {
        return execN == null && execWarmups == null && metrics == null && fileSizes == null && fileWarmups == null
                && floor == null && sweepLevels == null && sweepN == null;
    }

    /** Whether the metric's box is ticked; a fresh form ticks all. */
    public boolean ticked(String metric) {
        return metrics == null || metrics.contains(metric);
    }

    /**
     * The inputs that could not be read: numbers the binder could not convert (e.g. "abc") and
     * unreadable file sizes, each named by its form input.
     *
     * @param binding the binder's result for this form
     * @return empty when every input could be read
     */
    List<FieldError> readErrors(BindingResult binding) {
        List<FieldError> errors = new ArrayList<>(binding.getFieldErrors().stream()
                .map(e -> new FieldError(e.getField(), "must be a number, was " + Shown.quote(e.getRejectedValue())))
                .toList());
        // Named by the entry's place as typed, the way range errors on the readable entries are (see FormErrors).
        FileSizesText.read(fileSizes).stream().filter(e -> e.problem() != null)
                .forEach(e -> errors.add(new FieldError("plan.files.sizes[" + (e.position() - 1) + "]", e.problem())));
        if (!levelsReadable()) {
            errors.add(new FieldError(SWEEP_LEVELS, sweepLevels.length() > SWEEP_LEVELS_MAX_CHARS
                    ? "must be at most " + SWEEP_LEVELS_MAX_CHARS + " characters, was " + sweepLevels.length()
                    : "must be whole numbers separated by commas, e.g. 1, 2, 4, 8; was " + Shown.quote(sweepLevels)));
        }
        return errors;
    }

    /** Whether the sweep's levels, as typed, can be read: blank (no sweep) or whole numbers, within the length limit. */
    private boolean levelsReadable() {
        return sweepLevels == null || sweepLevels.isBlank()
                || (sweepLevels.length() <= SWEEP_LEVELS_MAX_CHARS && readableLevels().size() == tokens().length);
    }

    /** The levels typed that read as whole numbers, in order (the rest are left out, as unreadable numbers are). */
    private List<Integer> readableLevels() {
        List<Integer> levels = new ArrayList<>();
        for (String level : tokens()) {
            try {
                levels.add(Integer.parseInt(level));
            } catch (NumberFormatException e) {
                // Named once for the whole input by readErrors.
            }
        }
        return levels;
    }

    private String[] tokens() {
        String typed = sweepLevels.length() > SWEEP_LEVELS_MAX_CHARS ? "" : sweepLevels.strip();
        return typed.isEmpty() ? new String[0] : LEVEL_SEPARATOR.split(typed);
    }

    /**
     * Where each of {@link #toRequest()}'s file sizes was typed: element i is the 1-based
     * position (among non-blank entries) of the request's {@code plan.files.sizes[i]}.
     */
    List<Integer> sizePositions() {
        return FileSizesText.read(fileSizes).stream().filter(e -> e.size() != null).map(FileSizesText.Entry::position).toList();
    }

    /**
     * The request this form asks for, from the inputs that could be read: an unreadable number is
     * left out (the binder left it null), and so is an unreadable file size entry (the readable
     * ones stay, see {@link #sizePositions()}), so that the rest can be checked in the same pass.
     */
    RunRequest toRequest() {
        List<FileSize> sizes = FileSizesText.read(fileSizes).stream().map(FileSizesText.Entry::size).filter(s -> s != null).toList();
        List<String> ticked = metrics == null ? null : metrics.stream().filter(m -> m != null && !m.isBlank()).toList();
        // Typed but partly unreadable: the readable levels still go, so that sweepN's range is checked in the same pass.
        ConcurrencyPlan sweep = sweepLevels == null || sweepLevels.isBlank() ? null
                : new ConcurrencyPlan(readableLevels(), ticked, sweepN, null, null);
        Plan plan = new Plan(new ExecPlan(ticked, execN, execWarmups), new FilePlan(sizes, fileWarmups, null, null),
                FLOOR_OFF.equals(floor) ? new FloorPlan(false, null, null) : null, null, sweep);
        String on = testbed == null || testbed.isBlank() ? null : testbed.strip();
        if (compare != null && !compare.isBlank()) {
            List<CompareEntry> entries = new ArrayList<>();
            // Up to 5 read, so that "more than 4" is the REST check's to name.
            for (String typed : LEVEL_SEPARATOR.split(compare.strip(), 6)) {
                int eq = typed.indexOf('=');
                String label = eq < 0 ? typed : typed.substring(0, eq);
                String entryKind = eq < 0 ? typed : typed.substring(eq + 1);
                entries.add(new CompareEntry(label, new SpaceSpec(entryKind.isBlank() ? null : entryKind, cpus, memoryMiB), tickedChannels()));
            }
            return RunRequest.comparing(entries, plan, on);
        }
        return new RunRequest(new SpaceSpec(kind == null || kind.isBlank() ? null : kind.strip(), cpus, memoryMiB, null, null, null, null, null,
                name == null || name.isBlank() ? null : name.strip()), plan, on, tickedChannels());
    }
}
