package dev.spacebench.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TableBody;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TableHead;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.CustomBlock;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.core.env.StandardEnvironment;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * docs/configuration.md against the code: every property the app defines is in its tables, every
 * property in its tables exists, and each documented default is the app's own.
 *
 * <p>What the app defines is read independently of the page: Spring Boot's configuration metadata,
 * which spring-boot-configuration-processor writes from the {@code @ConfigurationProperties} records
 * at compile time (target/classes/META-INF/spring-configuration-metadata.json, merged with
 * src/main/resources/META-INF/additional-spring-configuration-metadata.json), and every
 * {@code ${spacebench.…}} placeholder in the sources ({@code @Value}, {@code @Scheduled}). A default
 * is checked by binding it, with {@code application.properties} under it, to the record that owns
 * the key and comparing the result with what the same binding makes of {@code application.properties}
 * alone: a default that cannot bind, or binds to something else, is a doc bug.
 */
class ConfigurationDocsTest {

    private static final Path ROOT = Path.of("").toAbsolutePath();
    private static final Path DOC = ROOT.resolve("docs/configuration.md");
    private static final Path APPLICATION_PROPERTIES = ROOT.resolve("src/main/resources/application.properties");
    private static final String METADATA = "META-INF/spring-configuration-metadata.json";
    private static final String ADDITIONAL_METADATA = "META-INF/additional-spring-configuration-metadata.json";
    /** {@code ${spacebench.key}} or {@code ${spacebench.key:default}}, as @Value and @Scheduled spell them. */
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{(spacebench\\.[a-z0-9.-]+)(?::([^}]*))?}");
    /** What the page writes in the default column for the empty value. */
    private static final String BLANK = "blank";

    private static Map<String, String> documented;
    private static List<String> pageProblems;
    /** This project's own metadata: key → its property node (name, type, sourceType, defaultValue). */
    private static Map<String, JsonNode> ours;
    /** Every metadata on the class path (Spring Boot's modules included): key → property node. */
    private static Map<String, JsonNode> known;
    /** This project's metadata groups: the record class name → its prefix. */
    private static Map<String, String> prefixOfRecord;
    private static Map<String, String> placeholders;
    private static Map<String, String> applicationProperties;

    @BeforeAll
    static void read() throws IOException {
        documented = new LinkedHashMap<>();
        pageProblems = new ArrayList<>();
        readTables(Files.readString(DOC));
        ours = new TreeMap<>();
        known = new TreeMap<>();
        prefixOfRecord = new HashMap<>();
        JsonMapper json = JsonMapper.builder().build();
        for (String name : List.of(METADATA, ADDITIONAL_METADATA)) {
            for (URL url : Collections.list(ConfigurationDocsTest.class.getClassLoader().getResources(name))) {
                JsonNode metadata;
                try (InputStream in = url.openStream()) {
                    metadata = json.readTree(in);
                }
                // This project's classes are a directory on the test class path; Spring Boot's are jars.
                boolean own = "file".equals(url.getProtocol()) && name.equals(METADATA);
                for (JsonNode property : metadata.path("properties")) {
                    known.put(property.path("name").asString(), property);
                    if (own) {
                        ours.put(property.path("name").asString(), property);
                    }
                }
                if (own) {
                    metadata.path("groups").forEach(g -> prefixOfRecord.put(g.path("type").asString(), g.path("name").asString()));
                }
            }
        }
        assertThat(ours).as("%s of this project on the class path (spring-boot-configuration-processor runs at compile time)", METADATA)
                .isNotEmpty();
        placeholders = new TreeMap<>();
        try (Stream<Path> sources = Files.walk(ROOT.resolve("src/main/java"))) {
            for (Path source : sources.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher m = PLACEHOLDER.matcher(Files.readString(source));
                while (m.find()) {
                    String previous = placeholders.put(m.group(1), m.group(2));
                    assertThat(previous == null || previous.equals(m.group(2)))
                            .as("%s has two defaults in the sources: %s and %s", m.group(1), previous, m.group(2)).isTrue();
                }
            }
        }
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(APPLICATION_PROPERTIES)) {
            properties.load(in);
        }
        applicationProperties = new TreeMap<>();
        properties.stringPropertyNames().forEach(k -> applicationProperties.put(k, properties.getProperty(k)));
    }

    /** Rows of every table whose first header cell is "property": a {@code `key`}, then a {@code `default`} or "blank". */
    private static void readTables(String markdown) {
        Node page = MarkdownDocsTest.PARSER.parse(markdown);
        page.accept(new AbstractVisitor() {
            @Override
            public void visit(CustomBlock block) {
                if (block instanceof TableBlock table && cellText(table.getFirstChild().getFirstChild().getFirstChild()).equals("property")) {
                    for (Node row = body(table).getFirstChild(); row != null; row = row.getNext()) {
                        readRow((TableCell) row.getFirstChild());
                    }
                }
            }
        });
    }

    private static Node body(TableBlock table) {
        for (Node n = table.getFirstChild(); n != null; n = n.getNext()) {
            if (n instanceof TableBody) {
                return n;
            }
        }
        throw new AssertionError("a table without rows in " + DOC);
    }

    private static void readRow(TableCell keyCell) {
        TableCell defaultCell = (TableCell) keyCell.getNext();
        if (!(keyCell.getFirstChild() instanceof Code key) || key.getNext() != null) {
            pageProblems.add("a row whose property is not one `key`: " + cellText(keyCell));
            return;
        }
        String value;
        if (defaultCell.getFirstChild() instanceof Code code && code.getNext() == null) {
            value = code.getLiteral();
        } else if (cellText(defaultCell).equals(BLANK)) {
            value = "";
        } else {
            pageProblems.add(key.getLiteral() + ": its default must be one `value` or the word blank, was " + cellText(defaultCell));
            return;
        }
        if (documented.put(key.getLiteral(), value) != null) {
            pageProblems.add(key.getLiteral() + " is listed twice");
        }
    }

    private static String cellText(Node cell) {
        StringBuilder s = new StringBuilder();
        cell.accept(new AbstractVisitor() {
            @Override
            public void visit(Text text) {
                s.append(text.getLiteral());
            }

            @Override
            public void visit(Code code) {
                s.append('`').append(code.getLiteral()).append('`');
            }
        });
        return s.toString().strip();
    }

    @Test
    void everyRowNamesOnePropertyAndADefault() {
        assertThat(pageProblems).as("rows of %s", ROOT.relativize(DOC)).isEmpty();
        assertThat(documented).as("properties documented in %s", ROOT.relativize(DOC)).hasSizeGreaterThan(20);
    }

    @Test
    void everyPropertyTheAppDefinesIsDocumented() {
        Set<String> defined = new TreeSet<>(ours.keySet());
        defined.addAll(placeholders.keySet());
        assertThat(defined).contains("spacebench.worker.lease", "spacebench.worker.poll-interval-ms");
        Set<String> undocumented = new TreeSet<>(defined);
        undocumented.removeAll(documented.keySet());
        assertThat(undocumented).as("properties the app defines that %s does not list", ROOT.relativize(DOC)).isEmpty();
    }

    @Test
    void everyDocumentedPropertyExists() {
        Set<String> unknown = new TreeSet<>(documented.keySet());
        unknown.removeAll(known.keySet());
        unknown.removeAll(placeholders.keySet());
        assertThat(unknown).as("properties %s lists that neither this app nor Spring Boot defines", ROOT.relativize(DOC)).isEmpty();
    }

    @Test
    void applicationPropertiesSetsNoSpacebenchPropertyTheAppDoesNotDefine() {
        Set<String> stray = new TreeSet<>();
        applicationProperties.keySet().stream().filter(k -> k.startsWith("spacebench."))
                .filter(k -> !ours.containsKey(k) && !placeholders.containsKey(k)).forEach(stray::add);
        assertThat(stray).as("spacebench.* keys in application.properties that nothing binds").isEmpty();
    }

    @Test
    void everyDocumentedDefaultBindsToWhatTheAppUsesWhenNothingIsSet() throws ClassNotFoundException {
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, String> row : documented.entrySet()) {
            String key = row.getKey();
            String documentedDefault = row.getValue();
            JsonNode own = ours.get(key);
            if (own != null && own.hasNonNull("sourceType")) {
                // A record's property: bind the record with and without the documented value.
                Class<?> record = Class.forName(own.path("sourceType").asString());
                String prefix = prefixOfRecord.get(record.getName());
                Object asTheAppHasIt = bind(prefix, record, applicationProperties);
                Map<String, String> withDocumented = new TreeMap<>(applicationProperties);
                withDocumented.put(key, documentedDefault);
                Object asDocumented;
                try {
                    asDocumented = bind(prefix, record, withDocumented);
                } catch (RuntimeException e) {
                    wrong.add(key + ": the documented default '" + documentedDefault + "' does not bind to "
                            + record.getSimpleName() + ": " + e.getMessage());
                    continue;
                }
                if (!asDocumented.equals(asTheAppHasIt)) {
                    wrong.add(key + ": the documented default '" + documentedDefault + "' binds to " + asDocumented
                            + ", the app's own default to " + asTheAppHasIt);
                }
            } else {
                // Read by a placeholder, or Spring Boot's: the app's default is its placeholder's default,
                // else what application.properties sets, else Spring Boot's own.
                String appDefault = placeholders.containsKey(key) ? placeholders.get(key)
                        : applicationProperties.containsKey(key) ? applicationProperties.get(key)
                        : known.containsKey(key) && known.get(key).hasNonNull("defaultValue") ? known.get(key).path("defaultValue").asString()
                        : null;
                if (appDefault == null) {
                    wrong.add(key + ": no default found in the sources, application.properties or Spring Boot's metadata");
                } else if (!appDefault.equals(documentedDefault)) {
                    wrong.add(key + ": documented default '" + documentedDefault + "', the app's '" + appDefault + "'");
                } else if (applicationProperties.containsKey(key) && !applicationProperties.get(key).equals(documentedDefault)) {
                    wrong.add(key + ": documented default '" + documentedDefault + "', application.properties sets '"
                            + applicationProperties.get(key) + "'");
                }
                String type = known.containsKey(key) ? known.get(key).path("type").asString("") : "";
                if (!type.isEmpty() && !type.contains("<")) {
                    try {
                        bind(key, Class.forName(type), Map.of(key, documentedDefault));
                    } catch (RuntimeException e) {
                        wrong.add(key + ": the documented default '" + documentedDefault + "' is not a " + type + ": " + e.getMessage());
                    }
                }
            }
        }
        assertThat(wrong).as("defaults in %s", ROOT.relativize(DOC)).isEmpty();
    }

    /** Binds as the app does, {@code ${java.io.tmpdir}}-style placeholders resolved from the system properties. */
    private static Object bind(String name, Class<?> type, Map<String, String> properties) {
        List<ConfigurationPropertySource> sources = List.of(new MapConfigurationPropertySource(properties));
        Binder binder = new Binder(sources, new PropertySourcesPlaceholdersResolver(new StandardEnvironment()));
        Object bound = binder.bindOrCreate(name, type);
        if (bound == null) {
            fail("nothing bound for " + name);
        }
        return bound;
    }
}
