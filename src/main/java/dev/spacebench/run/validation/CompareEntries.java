package dev.spacebench.run.validation;

import dev.spacebench.plan.Plan;
import dev.spacebench.plan.Plans;
import dev.spacebench.request.FieldError;
import dev.spacebench.run.CompareEntry;
import dev.spacebench.run.RunRequest;
import dev.spacebench.space.SpaceKinds;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The checks of a comparison run's request ({@code "compare"}, issue 29), in order: the request's
 * shape (not with {@code space} or top-level {@code channels}; 2 to {@value #MAX_ENTRIES} entries;
 * labels), then each entry's Space as a single run's ({@link RunRequestValidator}, fields named
 * {@code compare[i].…}, i from 0), then the plan: what a comparison cannot do yet is refused rather
 * than run another way (an entry of the {@code command} kind, which has no agent; a sequential order, several Spaces in turn, a concurrency sweep, no exec
 * metric to pair).
 */
public final class CompareEntries {

    public static final int MIN_ENTRIES = 2;
    public static final int MAX_ENTRIES = 4;
    public static final int MAX_LABEL = 40;
    /** Safe in a CSV cell, a URL, a file name and HTML without escaping. */
    public static final Pattern LABEL = Pattern.compile("[A-Za-z0-9._-]{1," + MAX_LABEL + "}");

    private CompareEntries() {}

    static List<FieldError> check(RunRequest request, RunRequestValidator validator) {
        List<FieldError> errors = new ArrayList<>();
        if (request.space() != null) {
            errors.add(new FieldError("space", "give either space (one Space) or compare (2 to " + MAX_ENTRIES
                    + " Spaces), not both; each compare entry has its own space"));
        }
        if (request.channels() != null) {
            errors.add(new FieldError("channels", "a comparison names each entry's channels inside it (compare[i].channels), "
                    + "not at the top level"));
        }
        List<CompareEntry> entries = request.compare();
        if (entries.size() < MIN_ENTRIES || entries.size() > MAX_ENTRIES) {
            errors.add(new FieldError("compare", "must have from " + MIN_ENTRIES + " to " + MAX_ENTRIES + " entries, had " + entries.size()));
        }
        Set<String> labels = new HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            CompareEntry entry = entries.get(i);
            String field = "compare[" + i + "]";
            if (entry == null) {
                errors.add(new FieldError(field, "must be an entry {\"label\": …, \"space\": {…}}, was null"));
                continue;
            }
            String label = entry.label();
            if (label == null || label.isEmpty()) {
                errors.add(new FieldError(field + ".label", "is required: 1 to " + MAX_LABEL + " characters of A-Z a-z 0-9 . _ -"));
            } else if (label.length() > MAX_LABEL) {
                errors.add(new FieldError(field + ".label", "must be at most " + MAX_LABEL + " characters, was " + label.length()));
            } else if (!LABEL.matcher(label).matches()) {
                errors.add(new FieldError(field + ".label", "may hold only A-Z a-z 0-9 . _ - (1 to " + MAX_LABEL + " characters), was '"
                        + label + "'"));
            } else if (!labels.add(label)) {
                errors.add(new FieldError(field + ".label", "must be unique in compare, '" + label + "' was given twice"));
            }
        }
        if (!errors.isEmpty()) {
            return errors;
        }
        for (int i = 0; i < entries.size(); i++) {
            String kind = validator.spec(entries.get(i).space(), entries.get(i).channels()).kind();
            if (SpaceKinds.reachedByCommands(kind)) {
                // Its Space has no agent, and a comparison's driver reaches each entry through one (and pairs agent-timed
                // exec blocks): refused rather than run without it.
                errors.add(new FieldError("compare[" + i + "].space.kind", "a comparison's entries are Spaces with an agent: the \""
                        + kind + "\" kind (an operator's target) is measured in a run of its own, without compare; was '" + kind + "'"));
                continue;
            }
            errors.addAll(validator.checkSpaceOnly(entries.get(i).space(), entries.get(i).channels(), request.testbed(),
                    "compare[" + i + "]."));
        }
        Plan plan = Plans.withDefaults(request.plan());
        if (Plan.SEQUENTIAL.equals(plan.order())) {
            errors.add(new FieldError("plan.order", "a comparison measures its Spaces in interleaved blocks: must be \""
                    + Plan.INTERLEAVED + "\" (or left out), was \"" + Plan.SEQUENTIAL + "\""));
        }
        if (plan.spaceCount() > 1) {
            errors.add(new FieldError("plan.spaces", "a comparison makes one Space per entry: must be 1 (or left out), was "
                    + plan.spaceCount()));
        }
        if (plan.concurrency() != null) {
            errors.add(new FieldError("plan.concurrency", "a comparison does not run a concurrency sweep: leave it out"));
        }
        if (plan.exec() != null && plan.exec().metrics() != null && plan.exec().metrics().isEmpty()) {
            errors.add(new FieldError("plan.exec.metrics", "a comparison pairs its entries' exec blocks: name at least one exec metric"));
        }
        if (!errors.isEmpty()) {
            return errors;
        }
        // The plan's own ranges and fit, once, against the first entry (the kinds' checks ran above).
        CompareEntry first = entries.get(0);
        errors.addAll(validator.check(first.space(), first.channels(), request.testbed(), request.plan(), "compare[0]."));
        return errors;
    }
}
