package dev.spacebench.space.local;

import dev.spacebench.space.SpaceException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A Space's directory on the host, the same layout for every kind that starts its own agent:
 *
 * <pre>
 * ROOT/KIND-N/            dir: the Space's id is its name
 *   owner                 the app process that made it ({@link OwnerMark})
 *   token                 the agent's token (0600)
 *   agent.log             the agent's (or its wrapper's) stderr
 *   space/                shared with the Space, same path inside where it is isolated
 *     agent.sock          the agent's unix socket, where it has one
 *     work/               the agent's work directory
 *     bulk/               the bulk lane
 * </pre>
 *
 * Work and bulk are in one directory tree, so one mount carries both and a bulk import is a
 * rename. Deleting {@code dir} removes everything.
 */
public record SpaceDir(Path dir, Path shared, Path work, Path bulk, TokenFile token) {

    /** sun_path holds 108 bytes with its terminating NUL. */
    public static final int MAX_SOCKET_PATH_BYTES = 107;

    /** Makes a new, uniquely named Space directory below {@code root} (created if missing). */
    public static SpaceDir create(Path root, String kind) throws IOException {
        Files.createDirectories(root);
        Path dir = Files.createTempDirectory(root, kind + "-");
        // So that the next start of an app can tell this directory from a live app's and remove it after a crash.
        OwnerMark.write(dir);
        Path shared = Files.createDirectory(dir.resolve("space"));
        return new SpaceDir(dir, shared, Files.createDirectory(shared.resolve("work")), Files.createDirectory(shared.resolve("bulk")),
                TokenFile.create(dir));
    }

    public String id() {
        return dir.getFileName().toString();
    }

    public Path log() {
        return dir.resolve("agent.log");
    }

    /** @throws SpaceException if the socket's path is too long for a unix socket, naming the setting that shortens it */
    public Path socket() throws SpaceException {
        Path socket = shared.resolve("agent.sock");
        if (socket.toString().getBytes(StandardCharsets.UTF_8).length > MAX_SOCKET_PATH_BYTES) {
            throw new SpaceException("the agent's socket path " + socket + " is longer than " + MAX_SOCKET_PATH_BYTES
                    + " bytes; set spacebench.spaces.root to a shorter directory");
        }
        return socket;
    }

    /** The agent's arguments for this directory: listen there, these dirs, this token, follow our stdin. */
    public List<String> agentArguments(String listen) {
        return agentArguments(listen, token.path().toString(), true);
    }

    /**
     * @param tokenFile where the agent reads the token (its own view)
     * @param followStdin whether the agent exits when its stdin closes; not where stdin is a console
     */
    public List<String> agentArguments(String listen, String tokenFile, boolean followStdin) {
        List<String> args = new ArrayList<>(List.of("--listen", listen, "--work-dir", work.toString(), "--bulk-dir", bulk.toString(),
                "--token-file", tokenFile));
        if (followStdin) {
            args.add("--exit-on-stdin-eof");
        }
        return args;
    }
}
