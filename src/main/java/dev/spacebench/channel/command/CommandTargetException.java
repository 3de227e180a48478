package dev.spacebench.channel.command;

/** A target's command failed (exit code, timeout), the reason in words. */
public class CommandTargetException extends RuntimeException {
    public CommandTargetException(String message) {
        super(message);
    }
}
