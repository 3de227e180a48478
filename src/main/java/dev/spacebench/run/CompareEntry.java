package dev.spacebench.run;

import dev.spacebench.space.SpaceSpec;
import java.util.List;

/**
 * One entry of a comparison run ({@code "compare"} in {@code POST /api/runs}, issue 29): a Space
 * measured beside the others in one run, its blocks interleaved with theirs.
 *
 * <pre>{"label": "A", "space": {"kind": "process"}, "channels": ["agent"]}</pre>
 *
 * @param label what the pages, result.json and samples.csv ({@code entry}) call it: 1 to
 *     {@link CompareEntries#MAX_LABEL} characters of {@code [A-Za-z0-9._-]}, unique in the run
 * @param space its Space, as the top-level {@code space} of a single run; stored with its channels in it
 * @param channels what it is measured through, as the top-level {@code channels}; null: the agent alone
 */
public record CompareEntry(String label, SpaceSpec space, List<String> channels) {

    public CompareEntry {
        channels = channels == null ? null : List.copyOf(channels);
    }

    /** An entry measured through the agent alone. */
    public CompareEntry(String label, SpaceSpec space) {
        this(label, space, null);
    }
}
