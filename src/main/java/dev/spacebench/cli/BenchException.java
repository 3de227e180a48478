package dev.spacebench.cli;

import java.io.PrintStream;

/** Bad usage, an unreadable plan, a refused request or an unreachable server: the bench command prints the message and exits 2. */
class BenchException extends RuntimeException {
    BenchException(String message) {
        super(message);
    }

    BenchException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Prints the message as the command's one line, e.g. {@code bench: …}; after the stack trace
     * of what caused it when that is an app that could not start for a reason with no one-line answer.
     */
    void print(PrintStream stderr, String command) {
        if (this instanceof LocalBackend.StartFailed) {
            getCause().printStackTrace(stderr);
        }
        stderr.println(command + ": " + getMessage());
    }
}
