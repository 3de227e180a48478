package dev.spacebench.system;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code server.json} in the data directory: where a running server serves,
 * {@code {"url": "http://127.0.0.1:8080", "pid": 4242}}. The server writes it once its web port
 * is open and removes it when it stops (owner-only, 0600); {@code bench} reads it to go through
 * that server rather than open the database it holds.
 */
public final class ServerFile {

    public static final String FILE_NAME = "server.json";

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Logger log = LoggerFactory.getLogger(ServerFile.class);

    /** A server found in a data directory. */
    public record LiveServer(URI url, long pid, Path file) {
    }

    private ServerFile() {
    }

    /**
     * The URL the app can be reached at on this host.
     *
     * @param address {@code server.address} as configured (blank or a wildcard: all interfaces,
     *     so loopback)
     */
    public static URI url(String address, int port) {
        String host = address == null || address.isBlank() ? "127.0.0.1" : address.strip();
        try {
            InetAddress ip = InetAddress.getByName(host);
            if (ip.isAnyLocalAddress()) {
                host = "127.0.0.1";
            } else if (host.contains(":") && !host.startsWith("[")) {
                host = "[" + host + "]";
            }
        } catch (UnknownHostException e) {
            // A name that does not resolve here: keep it as it was configured.
        }
        return URI.create("http://" + host + ":" + port);
    }

    /** Writes the file (replacing one a crashed server left) with this process's pid. */
    static void write(Path dataDirectory, URI url) throws IOException {
        Files.createDirectories(dataDirectory);
        Path file = dataDirectory.resolve(FILE_NAME);
        Path temporary = Files.createTempFile(dataDirectory, FILE_NAME, ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Map<String, Object> content = new LinkedHashMap<>();
        content.put("url", url.toString());
        content.put("pid", ProcessHandle.current().pid());
        Files.writeString(temporary, JSON.writeValueAsString(content) + "\n");
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Removes the file if it still names this process and URL (another server may have taken over). */
    static void remove(Path dataDirectory, URI url) {
        Path file = dataDirectory.resolve(FILE_NAME);
        read(file).filter(s -> s.pid() == ProcessHandle.current().pid() && s.url().equals(url)).ifPresent(s -> {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                log.warn("cannot remove {}: {}", file, e.getMessage());
            }
        });
    }

    /**
     * The server whose file is in this data directory, if its process is alive. A file whose
     * process has gone (the server was killed) counts as no server.
     */
    public static Optional<LiveServer> find(Path dataDirectory) {
        return read(dataDirectory.resolve(FILE_NAME))
                .filter(s -> ProcessHandle.of(s.pid()).map(ProcessHandle::isAlive).orElse(false));
    }

    private static Optional<LiveServer> read(Path file) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            JsonNode node = JSON.readTree(Files.readString(file));
            URI url = URI.create(node.path("url").asString());
            long pid = node.path("pid").asLong(-1);
            return url.getScheme() == null || pid <= 0 ? Optional.empty() : Optional.of(new LiveServer(url, pid, file));
        } catch (IOException | JacksonException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
