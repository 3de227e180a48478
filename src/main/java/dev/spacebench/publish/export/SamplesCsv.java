package dev.spacebench.publish.export;

import dev.spacebench.run.RunSample;
import java.io.IOException;
import java.io.Writer;
import java.util.Iterator;

/**
 * samples.csv: one row per sample, in the order taken (RFC 4180 quoting).
 *
 * <pre>metric,iteration,phase,ns,bytes,ok,error,agent_ns</pre>
 *
 * phase is "warmup" or "measured"; ns is the round-trip time; ok is true/false; error is empty
 * when ok; agent_ns is the agent's own time inside ns (exec: spawn to reap; files: its receive,
 * hash and rename, or read, hash and send), empty where the agent reports none (no-op, floor, Space). Columns are only ever appended.
 */
public final class SamplesCsv {

    public static final String HEADER = "metric,iteration,phase,ns,bytes,ok,error,agent_ns";

    private SamplesCsv() {}

    public static void write(Iterator<RunSample> samples, Writer out) throws IOException {
        out.write(HEADER);
        out.write('\n');
        while (samples.hasNext()) {
            RunSample s = samples.next();
            out.write(s.getMetric());
            out.write(',');
            out.write(Integer.toString(s.getIteration()));
            out.write(',');
            out.write(s.getPhase());
            out.write(',');
            out.write(Long.toString(s.getNs()));
            out.write(',');
            out.write(Long.toString(s.getBytes()));
            out.write(',');
            out.write(Boolean.toString(s.isOk()));
            out.write(',');
            out.write(quote(s.getError()));
            out.write(',');
            out.write(s.getAgentNs() == null ? "" : Long.toString(s.getAgentNs()));
            out.write('\n');
        }
    }

    private static String quote(String text) {
        if (text == null || text.isEmpty()) {
            return "";
        }
        return '"' + text.replace("\"", "\"\"") + '"';
    }
}
