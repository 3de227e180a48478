package dev.spacebench.environment;

/**
 * What Spacebench build measured a run.
 *
 * @param version the project version, e.g. {@code 0.1.0}
 * @param gitCommit full commit id, or "unknown" when built outside git
 * @param gitDirty whether the working tree had uncommitted changes at build time
 * @param builtAt build time (ISO-8601), or "unknown"
 */
public record Build(String version, String gitCommit, boolean gitDirty, String builtAt) {

    public String shortCommit() {
        return gitCommit.length() > 12 ? gitCommit.substring(0, 12) : gitCommit;
    }
}
