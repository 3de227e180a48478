package dev.spacebench.space;

import java.time.Instant;

/**
 * What this app knows about one kind of Space here: whether its last check made a Space of that
 * kind and reached its agent.
 *
 * @param kind the kind's name, e.g. {@code sandbox}
 * @param available true: the check made a Space and its agent answered a Ping; false: it could
 *     not (see {@code reason} and {@code fix}); null while the kind is being checked, or not
 *     checked yet (a kind checked on demand: {@code reason} says so)
 * @param reason why not, in plain words; empty when available or being checked
 * @param fix what to do about it (a package to install, a setting); empty when there is no
 *     reason or no known fix
 * @param checkedAt when the last check ended; null while a check runs
 */
public record KindStatus(String kind, Boolean available, String reason, String fix, Instant checkedAt) {

    /** The reason of a kind checked on demand before its first check. */
    public static final String NOT_CHECKED = "not checked yet (spacebench.space.check-on-demand): it is checked when a run "
            + "asks for it, or by \"Check kinds again\" (POST /api/kinds/check)";

    static KindStatus checking(String kind) {
        return new KindStatus(kind, null, "", "", null);
    }

    static KindStatus notChecked(String kind) {
        return new KindStatus(kind, null, NOT_CHECKED, "", null);
    }

    static KindStatus passed(String kind, Instant at) {
        return new KindStatus(kind, true, "", "", at);
    }

    static KindStatus failed(String kind, String reason, String fix, Instant at) {
        return new KindStatus(kind, false, reason, fix == null ? "" : fix, at);
    }

    /** True while a check of this kind runs (or waits to run), or before the first check of a kind checked on demand. */
    public boolean checking() {
        return available == null;
    }

    /** True when the last check made a Space of this kind and reached its agent. */
    public boolean passed() {
        return Boolean.TRUE.equals(available);
    }

    /** True when the last check could not make or reach a Space of this kind. */
    public boolean failed() {
        return Boolean.FALSE.equals(available);
    }

    /** The reason, and the fix after it where there is one: for messages. */
    public String reasonAndFix() {
        return fix.isEmpty() ? reason : reason + "; fix: " + fix;
    }
}
