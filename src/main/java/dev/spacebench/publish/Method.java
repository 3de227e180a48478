package dev.spacebench.publish;

import dev.spacebench.environment.Environment;
import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.plan.Plan;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** The page's Method section: what was measured, how, and what was excluded. */
final class Method {

    private Method() {}

    static List<String> describe(Plan plan, Environment env, String kind, int warmups, int failures) {
        List<String> lines = new ArrayList<>();
        String network = env == null ? null : env.space().get("network");
        String launch = env == null ? null : env.space().get("launch mechanism");
        if ("attach".equals(kind)) {
            lines.add("A worker connected to a Spacebench agent that was already running (the attach kind starts nothing), "
                    + "waited for its first successful Ping, and ran the loops below one after another; it left the agent running.");
        } else {
            lines.add("A worker created " + Headline.article(kind) + " " + kind + " Space, started the Spacebench agent in it, "
                    + "waited for its first successful Ping (the Space's ready time), ran the loops below one after another, "
                    + "and deleted the Space.");
        }
        if (plan.spaceCount() > 1) {
            lines.add("To sample the Space's ready and delete times, the worker created " + plan.spaceCount()
                    + " Spaces in turn, timing each from create to its first successful Ping and its delete; only the last "
                    + "one ran the loops below.");
        }
        if (plan.floor() != null && plan.floor().enabled()) {
            lines.add("Before creating the Space, the worker measured the floor on the host, " + plan.floor().n()
                    + " times each after " + plan.floor().warmups() + " warm-ups: starting true and sh -c true with the "
                    + "agent's own Exec code in the app's JVM, hyperfine -N true where hyperfine is installed, a bare gRPC "
                    + "ping to a server in the same JVM over loopback TCP, and the smallest step of System.nanoTime. "
                    + "The Space's figures are compared with these in plain words under the results.");
        }
        if (!plan.exec().metrics().isEmpty()) {
            String metrics = plan.exec().metrics().stream()
                    .map(m -> ExecRoundTrip.fromWireName(m).map(ExecRoundTrip::label).orElse(m))
                    .collect(Collectors.joining(", "));
            Integer agentWarmup = plan.exec().agentWarmupCalls();
            if (agentWarmup != null && agentWarmup > 0) {
                lines.add("Before the loops, the worker made " + agentWarmup + " untimed no-op calls and " + agentWarmup / 10
                        + " untimed true execs, so that the agent's JVM had compiled its serving path (a fresh JVM runs its "
                        + "first ~2,000 calls 3–6× slower). They are in no figure and not in samples.csv.");
            }
            lines.add("Exec round trips (" + metrics + "): " + plan.exec().warmups() + " warm-ups, then "
                    + plan.exec().n() + " measured round trips each, serially (one call in flight).");
            lines.add("Each round trip is timed with System.nanoTime from the client's gRPC call to its checked reply. "
                    + "For true and sh -c true that includes the gRPC call" + (network == null ? "" : " over " + network)
                    + ", the agent's spawn of the program (argv directly, no shell unless sh is the program"
                    + (launch == null ? "" : ", JDK launch mechanism " + launch)
                    + "), stdout and stderr captured through pipes, the wait for exit, and the host's check of exit code 0. "
                    + "The no-op is a Ping RPC that does no work.");
        }
        if (!plan.files().sizes().isEmpty()) {
            String sizes = plan.files().sizes().stream()
                    .map(s -> Format.bytes(s.bytes()) + " ×" + s.n()).collect(Collectors.joining(", "));
            lines.add("File transfers (" + sizes + ", after " + plan.files().warmups() + " warm-up transfer(s) per size): "
                    + "each iteration writes a fresh file of random bytes on the host (untimed), then times one upload "
                    + "and one download of it. Files of " + Format.bytes(plan.files().bulkThresholdBytes())
                    + " and more go through the bulk lane (a directory shared by host and Space; gRPC carries only the "
                    + "import/export call), smaller ones through the gRPC stream in " + Format.bytes(plan.files().chunkBytes())
                    + " chunks.");
            lines.add("Upload timed region: reading the host file and sending it (stream) or copying it into the shared "
                    + "directory (bulk lane), the agent's SHA-256 of what it received and its atomic rename into place, and "
                    + "the host's check of the agent's digest. The host's SHA-256 of the source is computed when the file is "
                    + "written, before the timer starts.");
            lines.add("Download timed region: the agent reading and hashing the file and sending it (stream) or copying "
                    + "it into the shared directory (bulk lane), and the host writing or reading it while hashing, checked "
                    + "against the agent's digest and the original SHA-256. Nothing is fsynced: files come from and go to "
                    + "the page cache.");
            lines.add("MiB/s = file size / p50 time, with 1 MiB = 2^20 bytes.");
        }
        lines.add("Percentiles use the nearest-rank definition: the p-th percentile of n sorted samples is the sample at "
                + "rank ⌈p/100 · n⌉, always a measured value, never interpolated. Slowest is the largest sample.");
        lines.add("Excluded from the figures, but kept in samples.csv: " + warmups + " warm-up sample(s) and "
                + failures + " failed measured iteration(s). Also outside every timed region: writing random files, "
                + "deleting files between iterations, and saving samples to the database.");
        return lines;
    }

}
