package dev.spacebench.publish;

import dev.spacebench.environment.Environment;
import dev.spacebench.plan.Plan;
import dev.spacebench.run.Run;
import dev.spacebench.run.RunStatus;
import java.util.ArrayList;
import java.util.List;

/** The page's Caveats: what a reader must know before quoting a figure. */
final class Caveats {

    private Caveats() {}

    static List<String> list(Run run, Plan plan, Environment env, String kind, List<RunReport.ExecRow> exec, int failures) {
        List<String> caveats = new ArrayList<>();
        if (run.getStatus() != RunStatus.SUCCEEDED) {
            caveats.add("This run did not succeed (" + run.getStatus()
                    + (run.getFailureReason() == null ? "" : ": " + run.getFailureReason())
                    + "). Its figures come from the samples taken before it stopped and may miss whole metrics.");
        }
        if ("process".equals(kind)) {
            caveats.add("The process kind isolates nothing: the agent is a plain child process on the host. Its figures "
                    + "are the floor that isolated kinds add to, not the figures of a sandbox.");
        }
        int n = plan.exec().n();
        if (!exec.isEmpty()) {
            int tail = (int) Math.floor(n * 0.01);
            caveats.add("At n = " + n + ", p99 rests on the slowest " + Math.max(1, n - (int) Math.ceil(0.99 * n) + 1)
                    + " sample(s)" + (tail < 3 ? ", too few for a tight bound" : "")
                    + "; slowest is a single observation. Treat tail figures as indications, not guarantees.");
        }
        if (!exec.isEmpty()) {
            Integer agentWarmup = plan.exec().agentWarmupCalls();
            caveats.add("The agent is a fresh JVM in every Space: its first ~2,000 calls run before the JIT has compiled "
                    + "them. " + (agentWarmup != null && agentWarmup > 0
                    ? agentWarmup + " untimed calls before the loops absorb most of that; the JIT may still be compiling "
                    + "during the first loop, which shows in its tail."
                    : "This run made no untimed agent warm-up calls, so its figures include JIT warm-up."));
        }
        caveats.add("Starting a process costs milliseconds on some virtual machines (a fork/exec floor of 2–3 ms was seen on "
                + "ours): true and sh -c true measure the host's spawn cost as much as the Space.");
        caveats.add("One run on one machine. Other load on the host was not controlled"
                + (env == null ? "" : "; " + env.otherSpacesRunning() + " other Space(s) of this app were running when it started")
                + ". Compare runs from the same machine, or read the environment table before comparing across machines.");
        if (!plan.files().sizes().isEmpty()) {
            caveats.add("File figures are for one file at a time, include SHA-256 on both sides, and use the page cache "
                    + "(no fsync): they are not disk throughput.");
        }
        if (failures > 0) {
            caveats.add(failures + " measured iteration(s) failed; they are excluded from the figures and listed with their "
                    + "errors in samples.csv.");
        }
        return caveats;
    }
}
