package dev.spacebench.publish;

import dev.spacebench.environment.Environment;
import dev.spacebench.environment.SystemFacts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A run's environment as a published site shows it: what a reader needs to reproduce the run, not
 * the publisher's file system. The stored run keeps everything (its owner's pages and exports show
 * it); only the static site ({@code GET /api/site.zip}, {@code bench publish}) goes through here.
 * <ul>
 *   <li>absolute paths become placeholders: the Space's own directory's parent (the Spaces root the
 *       run's worker used) {@code <spaces>}, and the publisher's data directory {@code <data>}, Spaces
 *       root {@code <spaces>}, temp directory {@code <tmp>}, home {@code <home>} and working directory {@code <cwd>};</li>
 *   <li>process ids ({@code pid}, {@code agent pid}, …) become {@code <pid>};</li>
 *   <li>the host's name becomes {@code <host>} (in the host and, where the Space shares it, the guest, and
 *       in the worker's name), and so does a testbed named after the host by default; a testbed
 *       name the publisher chose stays.</li>
 * </ul>
 *
 * @param paths absolute directory → placeholder, the longest applied first
 */
public record PublishedEnvironment(Map<String, String> paths) {

    public static final String HOST = "<host>";
    public static final String PID = "<pid>";
    private static final Pattern PID_FACT = Pattern.compile("(^|\\s)pid$");

    /**
     * @param dataDir the publisher's data directory, spacesRoot its Spaces root (either may be null)
     * @return the publisher's own directories with their placeholders
     */
    public static PublishedEnvironment of(Path dataDir, Path spacesRoot) {
        Map<String, String> paths = new LinkedHashMap<>();
        put(paths, System.getProperty("user.home"), "<home>");
        put(paths, System.getProperty("user.dir"), "<cwd>");
        put(paths, System.getProperty("java.io.tmpdir"), "<tmp>");
        put(paths, dataDir == null ? null : dataDir.toAbsolutePath().normalize().toString(), "<data>");
        put(paths, spacesRoot == null ? null : spacesRoot.toAbsolutePath().normalize().toString(), "<spaces>");
        return new PublishedEnvironment(paths);
    }

    private static void put(Map<String, String> paths, String dir, String placeholder) {
        // "/" alone would turn every path into a placeholder's tail; it names nothing of the publisher's.
        if (dir != null && dir.length() > 1) {
            paths.put(dir.endsWith("/") ? dir.substring(0, dir.length() - 1) : dir, placeholder);
        }
    }

    /** @return the testbed as published: its name, or {@code <host>} when it is the host's name (the default) */
    public String testbed(String testbed, Environment env) {
        String host = env == null || env.host() == null ? null : env.host().hostname();
        return testbed != null && testbed.equals(host) ? HOST : testbed;
    }

    /** @return {@code env} with paths, pids and the host's name taken out as the class comment says; null for null */
    public Environment redact(Environment env) {
        if (env == null) {
            return null;
        }
        String host = env.host() == null ? null : env.host().hostname();
        List<Map.Entry<String, String>> longestFirst = directories(env);

        Map<String, String> space = null;
        if (env.space() != null) {
            space = new LinkedHashMap<>();
            for (Map.Entry<String, String> fact : env.space().entrySet()) {
                space.put(fact.getKey(), PID_FACT.matcher(fact.getKey()).find() ? PID : text(fact.getValue(), longestFirst, null));
            }
        }
        Map<String, String> floor = null;
        if (env.floor() != null) {
            floor = new LinkedHashMap<>();
            for (Map.Entry<String, String> fact : env.floor().entrySet()) {
                floor.put(fact.getKey(), text(fact.getValue(), longestFirst, null));
            }
        }
        return new Environment(system(env.host(), longestFirst, host), system(env.guest(), longestFirst, host), space,
                env.agentVersion(), env.otherSpacesRunning(), text(env.worker(), longestFirst, host), floor, env.hostGcInLoops());
    }

    /**
     * Free text of the run's as a published site shows it, e.g. a sample's error in samples.csv:
     * the same directories become the same placeholders as in {@link #redact}; the host's name is
     * left (in prose it may be a word).
     *
     * @param env the run's stored environment (its Space directory names the worker's Spaces root); may be null
     * @return the text with paths replaced; null for null
     */
    public UnaryOperator<String> freeText(Environment env) {
        List<Map.Entry<String, String>> longestFirst = directories(env);
        return value -> text(value, longestFirst, null);
    }

    /** The publisher's directories and the run's worker's Spaces root with their placeholders, the longest first. */
    private List<Map.Entry<String, String>> directories(Environment env) {
        Map<String, String> dirs = new LinkedHashMap<>(paths);
        // The worker that ran it may have been another machine: its Spaces root is the Space directory's parent.
        String spaceDir = env == null || env.space() == null ? null : env.space().get("directory");
        if (spaceDir != null && spaceDir.startsWith("/")) {
            Path parent = Path.of(spaceDir).getParent();
            put(dirs, parent == null ? null : parent.toString(), "<spaces>");
        }
        List<Map.Entry<String, String>> longestFirst = new ArrayList<>(dirs.entrySet());
        longestFirst.sort(Comparator.comparingInt((Map.Entry<String, String> e) -> e.getKey().length()).reversed());
        return longestFirst;
    }

    private static SystemFacts system(SystemFacts facts, List<Map.Entry<String, String>> dirs, String host) {
        if (facts == null) {
            return null;
        }
        List<String> flags = facts.jvmFlags() == null ? null : facts.jvmFlags().stream().map(f -> text(f, dirs, null)).toList();
        String hostname = facts.hostname() != null && facts.hostname().equals(host) ? HOST : facts.hostname();
        return new SystemFacts(facts.os(), facts.kernel(), facts.arch(), facts.cpuModel(), facts.cpuCount(), facts.memoryBytes(),
                hostname, facts.jvm(), flags, facts.virtualization());
    }

    /**
     * Directories as placeholders (only whole path components); with {@code host}, the host's name
     * where it stands as a name of its own (the worker's name only: in prose, a host named "vm"
     * is a word).
     */
    static String text(String value, List<Map.Entry<String, String>> dirs, String host) {
        if (value == null) {
            return null;
        }
        String result = value;
        for (Map.Entry<String, String> dir : dirs) {
            result = Pattern.compile(Pattern.quote(dir.getKey()) + "(?=/|$|[^\\w.-])").matcher(result)
                    .replaceAll(Matcher.quoteReplacement(dir.getValue()));
        }
        if (host != null && !host.isBlank()) {
            result = Pattern.compile("(?<![\\w.-])" + Pattern.quote(host) + "(?![\\w-])").matcher(result)
                    .replaceAll(Matcher.quoteReplacement(HOST));
        }
        return result;
    }
}
