package dev.spacebench.channel.command;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A target an operator defined in {@code spacebench.targets-file}: a Space reached by commands run
 * on this host. A request can only name one; it never supplies a command.
 *
 * @param name its name in requests, 1 to 64 of {@code A-Za-z0-9._-}
 * @param create optional: makes the Space and prints its id on stdout (the {@code {id}} of the others); null: none
 * @param exec runs {@code {argv}} in the Space (required)
 * @param upload optional: copies host file {@code {local}} to {@code {remote}} in the Space; null: no file metrics
 * @param download optional: copies {@code {remote}} to host file {@code {local}}; null: no file metrics
 * @param delete optional: removes the Space made by {@code create}; null: nothing to remove
 * @param workDir where in the Space the file loops' {@code {remote}} paths live (an absolute path)
 */
public record CommandTarget(String name, CommandStep create, CommandStep exec, CommandStep upload, CommandStep download,
                            CommandStep delete, String workDir) {

    /** The command fields in the order a target file and a page list them. */
    public static final java.util.List<String> FIELDS = java.util.List.of("create", "exec", "upload", "download", "delete");

    /** Whether files can be moved: it has both {@code upload} and {@code download}. */
    public boolean movesFiles() {
        return upload != null && download != null;
    }

    /** The commands it has, by field, in {@link #FIELDS} order. */
    public Map<String, CommandStep> commands() {
        Map<String, CommandStep> steps = new LinkedHashMap<>();
        put(steps, "create", create);
        put(steps, "exec", exec);
        put(steps, "upload", upload);
        put(steps, "download", download);
        put(steps, "delete", delete);
        return steps;
    }

    private static void put(Map<String, CommandStep> steps, String field, CommandStep step) {
        if (step != null) {
            steps.put(field, step);
        }
    }
}
