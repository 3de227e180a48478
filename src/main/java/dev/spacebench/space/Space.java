package dev.spacebench.space;

import java.nio.file.Path;
import java.time.Instant;

/**
 * A live Space with its agent ready to serve.
 *
 * @param id unique per Space, e.g. {@code process-5f2c1a}
 * @param kind the provider that made it
 * @param target the gRPC target to dial: {@code 127.0.0.1:PORT} or {@code unix:/path}
 * @param token the per-Space token the agent requires
 * @param bulkDir the host's path of the directory shared with the Space (the bulk lane); null
 *     where the kind has none, and then every file goes through the stream
 * @param createdAt when creation started
 * @param readyNanos create → agent's readiness line, in ns
 * @param facts what the provider knows about it (pid, dirs, isolation, enforced shape…), for the page
 * @param ssh how to reach the Space's own SSH server; null when it has none (none was asked for)
 * @param containerExec how to reach a container Space through its engine's exec and cp; null for other kinds
 */
public record Space(
        String id,
        String kind,
        String target,
        String token,
        Path bulkDir,
        Instant createdAt,
        long readyNanos,
        SpaceFacts facts,
        SshAccess ssh,
        ContainerExecAccess containerExec) {

    /** A Space not reached through a container engine. */
    public Space(String id, String kind, String target, String token, Path bulkDir, Instant createdAt, long readyNanos,
                 SpaceFacts facts, SshAccess ssh) {
        this(id, kind, target, token, bulkDir, createdAt, readyNanos, facts, ssh, null);
    }

    /** A Space with no SSH server. */
    public Space(String id, String kind, String target, String token, Path bulkDir, Instant createdAt, long readyNanos,
                 SpaceFacts facts) {
        this(id, kind, target, token, bulkDir, createdAt, readyNanos, facts, null, null);
    }
}
