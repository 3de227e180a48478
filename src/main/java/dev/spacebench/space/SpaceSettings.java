package dev.spacebench.space;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code spacebench.space.*}, what every kind shares (each kind's own settings sit in its package).
 *
 * @param readyTimeout how long an agent may take to say it is ready; default 120 s
 * @param checkWait how long a request for a kind still being checked waits for the check's result
 *     before it is queued anyway; default 20 s
 * @param checksRoot where the kind checks' Spaces live, one directory per app process; default
 *     {@code ${java.io.tmpdir}/spacebench-kind-checks}
 * @param defaultKind the kind of a request that names none; blank (the default): sandbox where its
 *     check passed, else process
 * @param checkOnDemand kinds not checked at start but when first asked for (a run of the kind, or
 *     "Check kinds again"), e.g. {@code vm} where its check boots a guest under emulation (≈20 s of a
 *     core) on every start; empty (the default): every kind is checked at start
 * @param quietBeforeStart how long a run waits at most, before each Space's timed start, for the
 *     app's own JIT compilers and GC to go idle (outside the timed ready; the page says how long it
 *     waited); default 3 s, 0 for no wait
 * @param quietBeforeLoops how long a run waits at most, after each metric's warm-ups and before its
 *     measured loop, for the same (outside the timed loops; the page says how long it waited);
 *     default 3 s, 0 for no wait
 */
@ConfigurationProperties("spacebench.space")
public record SpaceSettings(@DefaultValue("120s") Duration readyTimeout, @DefaultValue("20s") Duration checkWait,
                            Path checksRoot, @DefaultValue("") String defaultKind,
                            @DefaultValue("") List<String> checkOnDemand, @DefaultValue("3s") Duration quietBeforeStart,
                            @DefaultValue("3s") Duration quietBeforeLoops) {

    public SpaceSettings {
        checksRoot = checksRoot != null ? checksRoot : Path.of(System.getProperty("java.io.tmpdir"), "spacebench-kind-checks");
        defaultKind = defaultKind == null ? "" : defaultKind;
        checkOnDemand = checkOnDemand == null ? List.of()
                : checkOnDemand.stream().map(String::strip).filter(kind -> !kind.isEmpty()).toList();
        if (quietBeforeStart == null || quietBeforeStart.isNegative()) {
            quietBeforeStart = Duration.ofSeconds(3);
        }
        if (quietBeforeLoops == null || quietBeforeLoops.isNegative()) {
            quietBeforeLoops = Duration.ofSeconds(3);
        }
    }
}
