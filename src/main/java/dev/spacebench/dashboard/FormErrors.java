package dev.spacebench.dashboard;

import dev.spacebench.request.FieldError;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Puts request errors next to the form's fields: maps the REST field paths that
 * {@code InvalidRequestException} names (e.g. {@code plan.exec.n}) to the form's inputs (e.g.
 * {@code execN}). What belongs to no input goes under {@value #FORM}.
 */
final class FormErrors {

    /** The key of errors shown above the form rather than beside an input. */
    static final String FORM = "form";
    private static final Map<String, String> FIELDS = Map.ofEntries(
            Map.entry("space.kind", "kind"), Map.entry("space.cpus", "cpus"), Map.entry("space.memoryMiB", "memoryMiB"),
            Map.entry("plan.exec.n", "execN"), Map.entry("plan.exec.warmups", "execWarmups"), Map.entry("plan.files.warmups", "fileWarmups"),
            Map.entry("testbed", "testbed"), Map.entry("plan.concurrency.n", "sweepN"), Map.entry("space.name", "name"),
            Map.entry("channels", "channels"));
    private static final Pattern SIZE = Pattern.compile("plan\\.files\\.sizes\\[(\\d+)](?:\\.(bytes|n))?");
    private static final Pattern LEVEL = Pattern.compile("plan\\.concurrency\\.levels\\[(\\d+)]");

    private FormErrors() {}

    /**
     * The unreadable inputs' errors, then the range errors of every other input: a range error
     * on an input that could not be read (it took its default), or that the plan has nothing to
     * measure while the file sizes could not be read, would only mislead. The file sizes field is
     * the exception: its readable entries were checked, so their range errors stay, each renamed
     * to the entry's place as typed; the field's errors come in the order of its entries.
     *
     * @param unreadable what could not be read; file size entries named {@code plan.files.sizes[typed position - 1]}
     * @param range the request's errors, file size entries named by their index in the request
     * @param sizePositions element i: the typed position (1-based) of the request's size i
     */
    static List<FieldError> withRangeErrors(List<FieldError> unreadable, List<FieldError> range, List<Integer> sizePositions) {
        java.util.Set<String> unread = unreadable.stream().map(e -> formField(e.field())).collect(java.util.stream.Collectors.toSet());
        List<FieldError> all = new java.util.ArrayList<>(unreadable);
        for (FieldError error : range) {
            Matcher size = SIZE.matcher(error.field());
            if (size.matches()) {
                int typed = sizePositions.get(Integer.parseInt(size.group(1))) - 1;
                all.add(new FieldError("plan.files.sizes[" + typed + "]" + (size.group(2) == null ? "" : "." + size.group(2)),
                        error.message()));
                continue;
            }
            String field = formField(error.field());
            boolean nothingToMeasure = error.field().equals("plan") && unread.contains(FileSizesText.FIELD);
            if (!unread.contains(field) && !nothingToMeasure) {
                all.add(error);
            }
        }
        all.sort(java.util.Comparator.comparingInt(FormErrors::sizeEntry));
        return all;
    }

    /** The size entry's index an error names; -1 for any other error (a stable sort keeps their order). */
    private static int sizeEntry(FieldError error) {
        Matcher size = SIZE.matcher(error.field());
        return size.matches() ? Integer.parseInt(size.group(1)) : -1;
    }

    /** Form input name → every message for it, joined with "; ", in the order given. */
    static Map<String, String> byField(List<FieldError> errors) {
        Map<String, String> byField = new LinkedHashMap<>();
        for (FieldError error : errors) {
            String field = formField(error.field());
            String message = message(error);
            byField.merge(field, message, (a, b) -> a + "; " + b);
        }
        return byField;
    }

    private static String formField(String apiField) {
        if (FIELDS.containsKey(apiField)) {
            return FIELDS.get(apiField);
        }
        if (apiField.startsWith("plan.exec.metrics") || apiField.startsWith("plan.concurrency.metrics")) {
            return "metrics";
        }
        if (apiField.startsWith("plan.concurrency")) {
            return RunForm.SWEEP_LEVELS;
        }
        if (apiField.startsWith(RunForm.COMPARE)) {
            return RunForm.COMPARE;
        }
        if (apiField.startsWith("plan.files.sizes")) {
            return FileSizesText.FIELD;
        }
        if (FIELDS.containsValue(apiField) || apiField.equals(FileSizesText.FIELD) || apiField.equals(RunForm.SWEEP_LEVELS)) {
            return apiField;
        }
        return FORM;
    }

    private static String message(FieldError error) {
        Matcher size = SIZE.matcher(error.field());
        if (size.matches()) {
            String part = size.group(2) == null ? "" : size.group(2).equals("bytes") ? " size" : " iterations";
            return "entry " + (Integer.parseInt(size.group(1)) + 1) + part + " " + error.message();
        }
        Matcher level = LEVEL.matcher(error.field());
        if (level.matches()) {
            return "level " + (Integer.parseInt(level.group(1)) + 1) + " " + error.message();
        }
        if (formField(error.field()).equals(FORM) || error.field().startsWith(RunForm.COMPARE + "[")) {
            return error.field() + " " + error.message();
        }
        return error.message();
    }
}
