package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An H2 URL with AUTO_SERVER=TRUE makes H2 listen on every interface with its key in a lock file:
 * the app refuses it at start unless told otherwise, and keeps its database private either way.
 */
class H2ServerRefusalTest {

    @TempDir
    Path temp;

    @Test
    void anAutoServerUrlIsRefusedAtStartNamingThePropertyAndTheAlternative() throws Exception {
        Path data = temp.resolve("data");
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path log = temp.resolve("app.log");
        Process app = new ProcessBuilder(ChildApp.mainCommand(List.of(), List.of("--server.port=" + port,
                "--spring.datasource.url=jdbc:h2:file:" + data.resolve("sb") + ";auto_server=true",
                "--spacebench.spaces.root=" + temp.resolve("spaces"), "--spacebench.space.check-on-demand=sandbox,container,vm")))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean exited = app.waitFor(180, TimeUnit.SECONDS);
        if (!exited) {
            app.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        String output = Files.readString(log);
        assertThat(exited).as("the app kept running instead of refusing the URL:\n" + output).isTrue();
        assertThat(app.exitValue()).as(output).isEqualTo(1);
        assertThat(output).contains("spring.datasource.url asks H2 for AUTO_SERVER=TRUE, refused")
                .contains("use PostgreSQL for several processes or machines on one database")
                .contains("spacebench.database.allow-h2-server=true");
        // A start-failure report, not a stack trace; and H2 never opened the file.
        assertThat(output).doesNotContain("\tat ");
        try (Stream<Path> files = Files.exists(data) ? Files.list(data) : Stream.empty()) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(name -> name.startsWith("sb."));
        }
    }

    @Test
    void allowedExplicitlyItStartsAndTheDatabaseIsTheOwnersAlone() throws Exception {
        Path data = Files.createDirectory(temp.resolve("data"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
        String url = "jdbc:h2:file:" + data.resolve("sb");
        // A database made before (by an older version, or by hand): its file as the umask left it.
        try (Connection c = DriverManager.getConnection(url, "sa", "")) {
            c.createStatement().execute("SELECT 1");
        }
        Path file = data.resolve("sb.mv.db");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        try (ChildApp app = ChildApp.startWith(List.of(), List.of("--spring.datasource.url=" + url + ";AUTO_SERVER=TRUE",
                "--spacebench.database.allow-h2-server=true", "--spacebench.spaces.root=" + temp.resolve("spaces"),
                "--spacebench.space.check-on-demand=sandbox,container,vm"), temp.resolve("app.log"))) {
            assertThat(app.response("/api/runs").statusCode()).isEqualTo(200);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data))).isEqualTo("rwx------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            // H2's server key is in its lock file, inside the private directory.
            assertThat(Files.readString(data.resolve("sb.lock.db"))).contains("server");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data.resolve("sb.lock.db")))).isEqualTo("rw-------");
            app.stop();
        }
    }
}
