package dev.spacebench.publish;

import dev.spacebench.environment.Environment;
import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.run.Run;
import dev.spacebench.run.RunStatus;
import java.util.List;

/** The one sentence under the title that answers the page's question with its headline figure. */
final class Headline {

    /** The exec metrics a headline quotes, most telling first. */
    static final List<ExecRoundTrip> METRICS = List.of(ExecRoundTrip.SH_C, ExecRoundTrip.TRUE, ExecRoundTrip.NOOP);

    private Headline() {}

    /**
     * The headline figure is the p50 of {@code sh -c true} (what an AI agent or CI step most often
     * does), else {@code true}, else the no-op, else the largest file's upload throughput.
     *
     * @param figuresStored whether the run has any stored figures (a run whose app was killed has
     *     none for the metric it was in)
     * @param samples samples the run stored
     */
    static String sentence(Run run, String kind, List<RunReport.ExecRow> exec, List<RunReport.FileRow> files,
                           Environment env, String version, boolean figuresStored, long samples) {
        if (run.getStatus() == RunStatus.QUEUED || run.getStatus() == RunStatus.RUNNING) {
            return "This run is " + run.getStatus() + "; the figures below are what it has measured so far.";
        }
        String machine = env == null ? "this host" : env.host().cpuCount() + "-CPU " + env.host().cpuModel() + " host";
        String when = Format.date(run.getStartedAt() == null ? run.getCreatedAt() : run.getStartedAt());
        String tail = " on a " + machine + ", measured " + when + " with Spacebench " + version + ".";
        String prefix = run.getStatus() == RunStatus.SUCCEEDED ? "" : "This run ended " + run.getStatus()
                + (run.getFailureReason() == null ? "" : " (" + run.getFailureReason() + ")")
                + (run.getStatus() == RunStatus.INTERRUPTED ? interrupted(run, samples) : "; from the samples it took, ");
        for (ExecRoundTrip wanted : METRICS) {
            for (RunReport.ExecRow row : exec) {
                if (row.metric().equals(wanted.id()) && row.p50().ns() != null) {
                    String what = wanted == ExecRoundTrip.NOOP ? "A " + wanted.label() + " round trip" : "A command round trip (" + row.label() + ")";
                    return capitalizeAfter(prefix, what + " into " + article(kind) + " " + kind + " Space took " + row.p50().text()
                            + " (p50, n = " + row.n() + failed(row.failures()) + ")" + tail);
                }
            }
        }
        for (int i = files.size() - 1; i >= 0; i--) {
            RunReport.FileRow row = files.get(i);
            if (row.upload().p50().ns() != null) {
                return capitalizeAfter(prefix, "A " + row.size() + " upload into " + article(kind) + " " + kind + " Space took " + row.upload().p50().text()
                        + " (p50, n = " + row.upload().n() + failed(row.uploadFailures()) + ", " + row.upload().mibPerSecondText() + " MiB/s, "
                        + row.lane() + " lane)" + tail);
            }
        }
        if (!figuresStored && samples > 0) {
            // An app killed mid-run stores no figures for the metric it was in; its samples are all kept.
            return "This run ended " + run.getStatus() + " before its figures were computed"
                    + (run.getFailureReason() == null ? "" : " (" + run.getFailureReason() + ")") + "; the " + samples
                    + " samples it took are kept in samples.csv.";
        }
        return "This run ended " + run.getStatus() + " before any round trip succeeded"
                + (run.getFailureReason() == null ? "." : ": " + run.getFailureReason());
    }

    /** An interrupted run's figures stop where it stopped: the headline says so before quoting one. */
    private static String interrupted(Run run, long samples) {
        return "; its figures cover only the " + samples + " samples taken before the interruption"
                + (run.isFiguresFromStoredSamples() ? " (computed from the stored samples when the run was found interrupted)" : "")
                + ": ";
    }

    /** ", 2 failed" beside an n, so a failure is never only in samples.csv. */
    private static String failed(int failures) {
        return failures == 0 ? "" : ", " + failures + " failed";
    }

    /** "a" or "an" before a kind's name: an attach Space, a sandbox Space. */
    static String article(String word) {
        return word != null && !word.isEmpty() && "aeiou".indexOf(Character.toLowerCase(word.charAt(0))) >= 0 ? "an" : "a";
    }

    private static String capitalizeAfter(String prefix, String sentence) {
        if (prefix.isEmpty()) {
            return sentence;
        }
        return prefix + Character.toLowerCase(sentence.charAt(0)) + sentence.substring(1);
    }
}
