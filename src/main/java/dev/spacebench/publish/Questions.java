package dev.spacebench.publish;

import dev.spacebench.environment.Environment;
import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.plan.Plan;
import java.util.ArrayList;
import java.util.List;

/** Questions a reader is likely to ask, answered for this run. */
final class Questions {

    private Questions() {}

    private static Long p50(List<RunReport.ExecRow> exec, ExecRoundTrip metric) {
        return exec.stream().filter(r -> r.metric().equals(metric.id())).map(r -> r.p50().ns()).findFirst().orElse(null);
    }

    static List<RunReport.Question> list(String kind, Plan plan, List<RunReport.ExecRow> exec, Environment env, boolean succeeded) {
        List<RunReport.Question> questions = new ArrayList<>();
        if (!succeeded) {
            // No answer built on figures this run did not take.
            questions.add(new RunReport.Question("Should I quote this run?",
                    "No: it did not run its whole plan. Quote a run that SUCCEEDED; this page says what happened and "
                            + "keeps what was measured."));
            questions.add(new RunReport.Question("Can I check what it measured?",
                    "Yes. samples.csv has every sample it took in ns, warm-ups and failures marked, with each failure's error."));
            return questions;
        }
        questions.add(new RunReport.Question("Why does running true take milliseconds when the no-op takes microseconds?",
                "The no-op measures the transport and the agent's dispatch. true adds starting a process (fork/exec or vfork, "
                        + "loading the program, pipes for its output, waiting for it to exit), which is the largest part of a "
                        + "command round trip on most machines."));
        Long trueP50 = p50(exec, ExecRoundTrip.TRUE);
        Long shP50 = p50(exec, ExecRoundTrip.SH_C);
        if (trueP50 != null && shP50 != null && shP50 <= trueP50) {
            questions.add(new RunReport.Question("Why is sh -c true not slower than true here?",
                    "The shell does not fork for its last command: it replaces itself with true (exec), so sh -c true costs "
                            + "one spawn plus loading sh, not two spawns. And true is measured first, while the agent's JIT may "
                            + "still be compiling the Exec path."));
        } else {
            questions.add(new RunReport.Question("Why is sh -c true slower than true?",
                    "It loads two programs: the shell, which then replaces itself with true (without a second fork)."));
        }
        questions.add(new RunReport.Question("Which figure should I quote?",
                "The p50 with its n, the kind of Space and the machine, as the headline sentence does. Quote p99 and slowest "
                        + "only with their n: at small n they rest on a handful of samples."));
        questions.add(new RunReport.Question("Can I check the figures myself?",
                "Yes. samples.csv has every sample in ns (warm-ups and failures marked). Sort the measured, ok samples of a "
                        + "metric and take the one at rank ⌈p/100 · n⌉: that is the published percentile, to the nanosecond."));
        questions.add(new RunReport.Question("How do I measure my own Space the same way?",
                "Run the reproduce commands with another kind, or start the agent inside your Space (java -jar spacebench.jar "
                        + "agent --listen … --work-dir … --bulk-dir … --token-file …) and measure it from here."));
        return questions;
    }
}
