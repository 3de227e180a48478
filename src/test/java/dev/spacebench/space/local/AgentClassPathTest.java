package dev.spacebench.space.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent's class path unpacked from a Spring Boot-style jar, on real files. */
class AgentClassPathTest {

    @TempDir
    Path dir;

    @Test
    void theAgentRunsWithGrpcProtobufAndJnaJarsOnlyInTheJarsOrder() throws Exception {
        List<String> libs = List.of("spring-core-7.0.1.jar", "grpc-api-1.84.1.jar", "logback-classic-1.5.38.jar",
                "slf4j-api-2.0.20.jar", "protobuf-java-4.36.2.jar", "h2-2.4.240.jar", "grpc-netty-shaded-1.84.1.jar",
                "guava-33.6.0-android.jar", "failureaccess-1.0.3.jar", "perfmark-api-0.27.0.jar", "spring-grpc-core-1.1.2.jar",
                "jna-5.19.1.jar");
        Path boot = bootJar(dir.resolve("app.jar"), libs);

        List<Path> entries = AgentClassPath.unpacked(boot, dir.resolve("cache"));

        assertThat(entries).extracting(p -> p.getFileName().toString()).containsExactly("classes.jar", "grpc-api-1.84.1.jar",
                "protobuf-java-4.36.2.jar", "grpc-netty-shaded-1.84.1.jar", "guava-33.6.0-android.jar", "failureaccess-1.0.3.jar",
                "perfmark-api-0.27.0.jar", "jna-5.19.1.jar");
        assertThat(entries).allMatch(Files::isRegularFile);
        assertThat(AgentClassPath.isPacked(entries.get(0))).as("unpacked, not packed").isFalse();
        // The app's own classes are there, under their package path.
        try (var jar = new java.util.jar.JarFile(entries.get(0).toFile())) {
            assertThat(jar.getEntry("dev/spacebench/agent/AgentMain.class")).isNotNull();
        }
    }

    @Test
    void fromAPlainClassPathTheClassesDirectoryIsPackedAndOnlyTheAgentsJarsFollowItRepackedWhenAClassChanges() throws Exception {
        Path classes = Files.createDirectories(dir.resolve("target/classes/dev/spacebench/agent")).getParent().getParent().getParent();
        Files.write(classes.resolve("dev/spacebench/agent/AgentMain.class"), new byte[] {(byte) 0xCA, (byte) 0xFE});
        Path testClasses = Files.createDirectories(dir.resolve("target/test-classes"));
        Files.writeString(testClasses.resolve("SomeTest.class"), "test");
        List<Path> own = new java.util.ArrayList<>(List.of(testClasses, classes));
        for (String lib : List.of("spring-core-7.0.1.jar", "grpc-api-1.84.1.jar", "junit-jupiter-api-6.0.1.jar", "protobuf-java-4.36.2.jar",
                "jackson-core-3.0.1.jar", "jna-5.19.1.jar")) {
            own.add(Files.writeString(dir.resolve(lib), lib));
        }

        List<Path> entries = AgentClassPath.packed(own, classes, dir.resolve("cache"));

        assertThat(entries).extracting(p -> p.getFileName().toString())
                .containsExactly("classes.jar", "grpc-api-1.84.1.jar", "protobuf-java-4.36.2.jar", "jna-5.19.1.jar");
        try (var jar = new java.util.jar.JarFile(entries.get(0).toFile())) {
            assertThat(jar.getEntry("dev/spacebench/agent/AgentMain.class")).isNotNull();
            assertThat(jar.getEntry("SomeTest.class")).isNull();
            // Directory entries too: Spring finds classpath:/templates/ and Flyway db/migration/ through them.
            assertThat(jar.getEntry("dev/spacebench/agent/")).isNotNull();
        }
        // The class-data archive goes beside a packed class path, as beside an unpacked one, named by the whole
        // class path: another one starting with the same classes.jar (an app JVM's agents) gets an archive of its own.
        Path archive = AgentArchive.location(entries).orElseThrow();
        assertThat(archive.getParent()).isEqualTo(entries.get(0).getParent());
        assertThat(archive.getFileName().toString()).startsWith(AgentArchive.PREFIX).endsWith(".jsa");
        List<Path> longer = new java.util.ArrayList<>(entries);
        longer.add(own.get(2));
        assertThat(AgentArchive.location(longer)).isNotEmpty().isNotEqualTo(Optional.of(archive));
        assertThat(AgentArchive.location(List.copyOf(entries))).contains(archive);
        assertThat(AgentClassPath.packed(own, classes, dir.resolve("cache"))).isEqualTo(entries);
        // An app JVM started on the packed jar and all the libraries gives its agents the same class path.
        assertThat(AgentClassPath.isPacked(entries.get(0))).isTrue();
        List<Path> appClassPath = new java.util.ArrayList<>(List.of(entries.get(0)));
        appClassPath.addAll(own.subList(2, own.size()));
        assertThat(AgentClassPath.fromPacked(appClassPath)).isEqualTo(entries);

        Files.writeString(classes.resolve("dev/spacebench/agent/Other.class"), "recompiled");
        List<Path> repacked = AgentClassPath.packed(own, classes, dir.resolve("cache"));
        assertThat(repacked.get(0)).isNotEqualTo(entries.get(0));
        try (var jar = new java.util.jar.JarFile(repacked.get(0).toFile())) {
            assertThat(jar.getEntry("dev/spacebench/agent/Other.class")).isNotNull();
        }
    }

    /** A jar laid out as Spring Boot packs one: classes, libraries and their order in classpath.idx. */
    private static Path bootJar(Path file, List<String> libs) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Start-Class", "dev.spacebench.SpacebenchApplication");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(file), manifest)) {
            out.putNextEntry(new JarEntry("BOOT-INF/classes/dev/spacebench/agent/AgentMain.class"));
            out.write(new byte[] {(byte) 0xCA, (byte) 0xFE});
            out.closeEntry();
            StringBuilder index = new StringBuilder();
            for (String lib : libs) {
                out.putNextEntry(new JarEntry("BOOT-INF/lib/" + lib));
                out.write(lib.getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
                index.append("- \"BOOT-INF/lib/").append(lib).append("\"\n");
            }
            out.putNextEntry(new JarEntry("BOOT-INF/classpath.idx"));
            out.write(index.toString().getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return file;
    }
}
