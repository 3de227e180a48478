package dev.spacebench.publish;

import dev.spacebench.metric.ExecRoundTrip;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Questions a reader is likely to ask, answered for this run. The prose is
 * {@code templates/text/prose/questions.txt}: one paragraph per question, its first line the
 * question.
 */
final class Questions {

    private Questions() {}

    /**
     * What questions.txt reads: a question about a metric is asked only where the plan measured it.
     *
     * @param succeeded false: no answer built on figures the run did not take
     * @param noopAndTrue the no-op and true both have a p50 (the one asks why true costs milliseconds)
     * @param trueAndShC true and sh -c true both have a p50 (the one asks which is slower)
     * @param shNotSlower sh -c true's p50 is at most true's
     */
    record Facts(boolean succeeded, boolean noopAndTrue, boolean trueAndShC, boolean shNotSlower) {
    }

    private static Long p50(List<RunReport.ExecRow> exec, ExecRoundTrip metric) {
        // A row whose samples all failed has no p50 (findFirst of a null element would throw).
        return exec.stream().filter(r -> r.metric().equals(metric.id())).findFirst().map(r -> r.p50().ns()).orElse(null);
    }

    static List<RunReport.Question> list(List<RunReport.ExecRow> exec, boolean succeeded) {
        Long trueP50 = p50(exec, ExecRoundTrip.TRUE);
        Long shP50 = p50(exec, ExecRoundTrip.SH_C);
        Long noopP50 = p50(exec, ExecRoundTrip.NOOP);
        Facts facts = new Facts(succeeded, noopP50 != null && trueP50 != null, trueP50 != null && shP50 != null,
                trueP50 != null && shP50 != null && shP50 <= trueP50);
        List<RunReport.Question> questions = new ArrayList<>();
        for (String block : TextTemplates.blocks("prose/questions", Map.of("q", facts))) {
            String[] lines = block.split("\n", 2);
            questions.add(new RunReport.Question(lines[0].strip(), lines.length < 2 ? "" : lines[1].strip().replaceAll("\\s+", " ")));
        }
        return questions;
    }
}
