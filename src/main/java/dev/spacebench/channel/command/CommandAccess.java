package dev.spacebench.channel.command;

/**
 * How to reach one Space of a command target: the target's commands and the id its {@code create}
 * printed. No secret: the commands are the operator's file's, shown on pages as they are.
 *
 * @param target the target's definition
 * @param id what {@code create} printed (stripped), the value of {@code {id}}; null when the target has no {@code create}
 */
public record CommandAccess(CommandTarget target, String id) {

    @Override
    public String toString() {
        return "command target " + target.name() + (id == null ? "" : " " + id);
    }
}
