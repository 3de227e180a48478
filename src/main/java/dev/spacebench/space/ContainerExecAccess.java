package dev.spacebench.space;

import java.nio.file.Path;

/**
 * How to reach a container Space the way a user of docker-style sandboxes does: the engine's own
 * command line tool, {@code podman exec} and {@code podman cp} (or docker's). Holds no secret.
 *
 * @param cli the engine's binary, e.g. {@code /usr/bin/podman}
 * @param container the container's name
 * @param workDir the Space's work directory inside the container (the same path on the host): remote paths are relative to it
 */
public record ContainerExecAccess(Path cli, String container, String workDir) {

    /** For a page or a log. */
    @Override
    public String toString() {
        return cli.getFileName() + " exec " + container;
    }
}
