package dev.spacebench.space.local;

import dev.spacebench.space.FileTrees;
import dev.spacebench.space.SpaceException;
import dev.spacebench.space.limits.HostShape;
import java.nio.file.Path;

/**
 * What a Space holds on this host, and how to remove it: first the kind's own step (e.g. removing a
 * container, whose processes are the engine's and not ours), then the process tree this app
 * started, then the cgroups, then the Space's directory. Any part may be null: nothing of that
 * kind exists (yet). Serves delete and a create that failed half way alike.
 *
 * @param first the kind's own step, or null
 * @param process the process this app started, or null
 * @param shape the cgroups made for it, or null
 * @param dir the Space's host directory, or null
 */
public record Teardown(Runnable first, Process process, HostShape shape, Path dir) {

    /** Only a directory to remove: for a Space this provider no longer knows. */
    public static Teardown directory(Path dir) {
        return new Teardown(null, null, null, dir);
    }

    /** Removes everything; never throws. */
    public void run() {
        if (first != null) {
            first.run();
        }
        if (process != null) {
            ProcessTrees.kill(process.toHandle());
        }
        if (shape != null) {
            shape.release();
        }
        if (dir != null) {
            FileTrees.deleteQuietly(dir);
        }
    }

    /** Removes everything, then gives the exception a failed create throws. */
    public SpaceException failed(String kind, Exception cause) {
        run();
        return cause instanceof SpaceException se ? se : new SpaceException("could not start a " + kind + " Space: " + cause.getMessage(), cause);
    }
}
