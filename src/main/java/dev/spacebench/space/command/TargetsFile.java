package dev.spacebench.space.command;

import dev.spacebench.channel.command.CommandStep;
import dev.spacebench.channel.command.CommandTarget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.convert.DurationStyle;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads {@code spacebench.targets-file}: YAML with one map, {@code targets}, of target name → entry.
 *
 * <pre>
 * targets:
 *   my-podman:
 *     workDir: /tmp
 *     create: {argv: [podman, run, -d, …], timeout: 120s}
 *     exec: [podman, exec, "{id}", "{argv}"]
 *     upload: [podman, cp, "{local}", "{id}:{remote}"]
 *     download: [podman, cp, "{id}:{remote}", "{local}"]
 *     delete: [podman, rm, -f, "{id}"]
 * </pre>
 *
 * A command is an argv list, or a map of {@code argv} (the list) and {@code timeout} (e.g. {@code 30s});
 * never a string (a shell line). Refused, naming file, entry and field: a string where a list
 * belongs, a placeholder other than {@code {id}}, {@code {argv}}, {@code {local}}, {@code {remote}}
 * or one the field cannot have, a missing {@code exec}, an unknown field, a duplicate name.
 */
public final class TargetsFile {

    /** Target names as requests give them. */
    public static final String NAME = "[A-Za-z0-9._-]{1,64}";
    static final Map<String, Duration> DEFAULT_TIMEOUTS = Map.of("create", Duration.ofSeconds(120), "exec", Duration.ofSeconds(60),
            "upload", Duration.ofSeconds(300), "download", Duration.ofSeconds(300), "delete", Duration.ofSeconds(60));
    static final String DEFAULT_WORK_DIR = "/tmp";
    private static final Set<String> ENTRY_FIELDS = Set.of("create", "exec", "upload", "download", "delete", "workDir", "description");

    private final String file;

    private TargetsFile(String file) {
        this.file = file;
    }

    /**
     * @return the targets by name, in the file's order
     * @throws TargetsFileException naming the file, the entry and the field of the first problem
     */
    public static Map<String, CommandTarget> read(Path path) {
        return new TargetsFile(path.toString()).parse(path);
    }

    private Map<String, CommandTarget> parse(Path path) {
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new TargetsFileException(file, null, null, "no readable file there (spacebench.targets-file names it; leave the "
                    + "property blank for no targets)");
        }
        JsonNode root;
        try {
            root = YAMLMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build().readTree(path.toFile());
        } catch (JacksonException e) {
            throw new TargetsFileException(file, null, null, "not valid YAML: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject() || !root.has("targets") || root.properties().size() != 1) {
            throw new TargetsFileException(file, null, null, "must be a map with one key, 'targets': a map of target name → entry");
        }
        JsonNode targets = root.get("targets");
        if (!targets.isObject()) {
            throw new TargetsFileException(file, null, "targets", "must be a map of target name → entry, was " + kindOf(targets));
        }
        Map<String, CommandTarget> read = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : targets.properties()) {
            String name = entry.getKey();
            if (!name.matches(NAME)) {
                throw new TargetsFileException(file, name, null, "a target's name is 1 to 64 of A-Za-z0-9._-");
            }
            read.put(name, target(name, entry.getValue()));
        }
        return read;
    }

    private CommandTarget target(String name, JsonNode entry) {
        if (!entry.isObject()) {
            throw new TargetsFileException(file, name, null, "must be a map with exec (required), create, upload, download, delete, "
                    + "workDir, was " + kindOf(entry));
        }
        for (String field : entry.propertyNames()) {
            if (!ENTRY_FIELDS.contains(field)) {
                throw new TargetsFileException(file, name, field, "unknown field; a target has " + CommandTarget.FIELDS
                        + ", workDir and description");
            }
        }
        if (!entry.has("exec") || entry.get("exec").isNull()) {
            throw new TargetsFileException(file, name, "exec", "missing: every target needs exec, an argv list with {argv} as a word, "
                    + "e.g. [podman, exec, \"{id}\", \"{argv}\"]");
        }
        boolean created = entry.has("create") && !entry.get("create").isNull();
        CommandStep create = step(name, "create", entry.get("create"), List.of());
        CommandStep exec = step(name, "exec", entry.get("exec"), created ? List.of(CommandStep.ID, CommandStep.ARGV) : List.of(CommandStep.ARGV));
        List<String> files = created ? List.of(CommandStep.ID, CommandStep.LOCAL, CommandStep.REMOTE)
                : List.of(CommandStep.LOCAL, CommandStep.REMOTE);
        CommandStep upload = step(name, "upload", entry.get("upload"), files);
        CommandStep download = step(name, "download", entry.get("download"), files);
        CommandStep delete = step(name, "delete", entry.get("delete"), created ? List.of(CommandStep.ID) : List.of());
        requireWhole(name, "exec", exec, CommandStep.ARGV);
        requireBoth(name, "upload", upload);
        requireBoth(name, "download", download);
        return new CommandTarget(name, create, exec, upload, download, delete, workDir(name, entry.get("workDir"), created));
    }

    /** A file command must say where the file is on both sides. */
    private void requireBoth(String name, String field, CommandStep step) {
        if (step == null) {
            return;
        }
        for (String needed : List.of(CommandStep.LOCAL, CommandStep.REMOTE)) {
            if (!step.placeholders().contains(needed)) {
                throw new TargetsFileException(file, name, field, "must hold both " + CommandStep.LOCAL + " (the host's file) and "
                        + CommandStep.REMOTE + " (the Space's), was " + step.argv());
            }
        }
    }

    /** {@code {argv}} must stand alone as a word, exactly once: it expands to several words. */
    private void requireWhole(String name, String field, CommandStep step, String placeholder) {
        long whole = step.argv().stream().filter(placeholder::equals).count();
        boolean inside = step.argv().stream().anyMatch(w -> w.contains(placeholder) && !w.equals(placeholder));
        if (whole != 1 || inside) {
            throw new TargetsFileException(file, name, field, placeholder + " must be one word of its own, once (it expands to the "
                    + "command's words in place), e.g. [podman, exec, \"{id}\", \"{argv}\"]; was " + step.argv());
        }
    }

    /**
     * @param allowed the placeholders this field may hold
     * @return null when the field is absent
     */
    private CommandStep step(String name, String field, JsonNode node, List<String> allowed) {
        if (node == null || node.isNull()) {
            return null;
        }
        JsonNode argvNode = node;
        Duration timeout = DEFAULT_TIMEOUTS.get(field);
        if (node.isObject()) {
            for (String key : node.propertyNames()) {
                if (!key.equals("argv") && !key.equals("timeout")) {
                    throw new TargetsFileException(file, name, field + "." + key, "unknown; a command is an argv list, or a map of "
                            + "argv (the list) and timeout (e.g. 30s)");
                }
            }
            argvNode = node.get("argv");
            if (argvNode == null) {
                throw new TargetsFileException(file, name, field + ".argv", "missing: the command's words as a list");
            }
            if (node.has("timeout")) {
                timeout = timeout(name, field + ".timeout", node.get("timeout"));
            }
            field = field + ".argv";
        }
        if (argvNode.isString()) {
            throw new TargetsFileException(file, name, field, "is a string (a shell line); give an argv list, one word each, never run "
                    + "by a shell, e.g. [podman, exec, \"{id}\", \"{argv}\"]; was \"" + argvNode.stringValue() + "\"");
        }
        if (!argvNode.isArray() || argvNode.isEmpty()) {
            throw new TargetsFileException(file, name, field, "must be a non-empty argv list, was " + kindOf(argvNode));
        }
        List<String> argv = new ArrayList<>();
        for (JsonNode word : argvNode.values()) {
            if (!word.isString() && !word.isNumber()) {
                throw new TargetsFileException(file, name, field, "each word must be a string, was " + kindOf(word) + " in " + argvNode);
            }
            argv.add(word.asString());
        }
        CommandStep step = new CommandStep(argv, timeout);
        for (String placeholder : step.placeholders()) {
            if (!CommandStep.PLACEHOLDERS.contains(placeholder)) {
                throw new TargetsFileException(file, name, field, "unknown placeholder " + placeholder + "; the placeholders are "
                        + CommandStep.PLACEHOLDERS);
            }
            if (!allowed.contains(placeholder)) {
                throw new TargetsFileException(file, name, field, placeholder + " cannot be used here: " + why(field, placeholder)
                        + "; this field may hold " + (allowed.isEmpty() ? "none" : allowed));
            }
        }
        return step;
    }

    private static String why(String field, String placeholder) {
        if (placeholder.equals(CommandStep.ID)) {
            return field.startsWith("create") ? "create prints the id" : "{id} is what create prints, and this target has no create";
        }
        if (placeholder.equals(CommandStep.ARGV)) {
            return "{argv} belongs to exec";
        }
        return placeholder + " belongs to upload and download";
    }

    private Duration timeout(String name, String field, JsonNode node) {
        if (!node.isString() || !node.stringValue().matches("\\d+(ns|us|ms|s|m|h|d)")) {
            throw new TargetsFileException(file, name, field, "must be a duration with its unit, e.g. 30s, 500ms, 2m; was " + node);
        }
        Duration timeout = DurationStyle.SIMPLE.parse(node.stringValue());
        if (timeout.isZero() || timeout.compareTo(Duration.ofHours(24)) > 0) {
            throw new TargetsFileException(file, name, field, "must be more than 0 and at most 24h, was " + node.stringValue());
        }
        return timeout;
    }

    /** An absolute path, or one starting with {@code {id}} where create prints a directory (a target of local directories). */
    private String workDir(String name, JsonNode node, boolean created) {
        if (node == null || node.isNull()) {
            return DEFAULT_WORK_DIR;
        }
        String dir = node.isString() ? node.stringValue() : "";
        boolean fromId = created && (dir.equals(CommandStep.ID) || dir.startsWith(CommandStep.ID + "/"));
        String rest = fromId ? dir.substring(CommandStep.ID.length()) : dir;
        if (!(fromId || dir.startsWith("/")) || List.of(dir.split("/")).contains("..") || dir.chars().anyMatch(Character::isISOControl)
                || CommandStep.PLACEHOLDER.matcher(rest).find()) {
            throw new TargetsFileException(file, name, "workDir", "must be an absolute path in the Space without '..' (or start with "
                    + CommandStep.ID + " when create prints a directory), was " + node);
        }
        return dir.length() > 1 && dir.endsWith("/") ? dir.substring(0, dir.length() - 1) : dir;
    }

    private static String kindOf(JsonNode node) {
        return node == null ? "nothing" : node.getNodeType().name().toLowerCase() + (node.isString() ? " \"" + node.stringValue() + "\"" : "");
    }
}
