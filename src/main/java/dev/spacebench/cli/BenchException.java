package dev.spacebench.cli;

/** Bad usage, an unreadable plan, a refused request or an unreachable server: the bench command prints the message and exits 2. */
class BenchException extends RuntimeException {
    BenchException(String message) {
        super(message);
    }

    BenchException(String message, Throwable cause) {
        super(message, cause);
    }
}
