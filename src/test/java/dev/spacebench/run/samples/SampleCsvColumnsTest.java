package dev.spacebench.run.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * samples.csv's one definition of its columns: the header, a row, and the REST reference page all
 * follow {@link SampleCsv.Column}, written out here by hand.
 */
class SampleCsvColumnsTest {

    @Test
    void theHeaderIsTheColumnsInOrder() {
        assertThat(Arrays.stream(SampleCsv.Column.values()).map(SampleCsv.Column::columnName).toList())
                .containsExactly("metric", "iteration", "phase", "ns", "bytes", "ok", "error", "agent_ns", "level", "space_index", "block", "seq", "entry");
        // The stored columns with channel, read from the metric and stored nowhere, after space_index
        // (where it was appended), then block, seq and entry, appended after it.
        assertThat(SampleCsv.HEADER).isEqualTo("metric,iteration,phase,ns,bytes,ok,error,agent_ns,level,space_index,channel,block,seq,entry");
        assertThat(SampleCsv.COLUMNS).isEqualTo("metric, iteration, phase, ns, bytes, ok, error, agent_ns, level, space_index, block, seq, entry");
    }

    @Test
    void aRowWritesEveryColumnNullsAsNothing() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CsvOut out = new CsvOut(bytes);
        SampleCsv.row(out, new RunSample(7L, "sweep.4.exec.sh_c", 3, "measured", 1_234_567, 0, false, "exit code 1, \"127\"", 890L, 4, 2));
        SampleCsv.row(out, new RunSample(7L, "exec.noop", 1, "warmup", 42, 0, true, null));
        SampleCsv.row(out, new RunSample(7L, "via.ssh.file.upload.1MiB", 2, "measured", 99, 1_048_576, true, null));
        SampleCsv.row(out, new RunSample(7L, "floor.spawn.true", 9, "measured", 77, 0, true, null, null, null, null, 3, 1L << 33));
        SampleCsv.row(out, new RunSample(7L, "entry.2.exec.true", 4, "measured", 55, 0, true, null, 21L, null, null, 1, 12L).inEntry("B-x"));
        out.flush();
        // channel after space_index: empty for a sweep's metric, agent for the agent's, the channel named in a via id.
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo(
                "sweep.4.exec.sh_c,3,measured,1234567,0,false,\"exit code 1, \"\"127\"\"\",890,4,2,,,,\n"
                        + "exec.noop,1,warmup,42,0,true,,,,,agent,,,\n"
                        + "via.ssh.file.upload.1MiB,2,measured,99,1048576,true,,,,,ssh,,,\n"
                        + "floor.spawn.true,9,measured,77,0,true,,,,,,3,8589934592,\n"
                        + "entry.2.exec.true,4,measured,55,0,true,,21,,,agent,1,12,B-x\n");
    }

    @Test
    void theRestReferenceNamesEveryColumn() throws Exception {
        String rest = Files.readString(Path.of("docs/rest.md"));
        List<String> lines = rest.lines().filter(l -> l.contains("/samples.csv`")).toList();
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).contains("`" + SampleCsv.HEADER + "`");
    }
}
