package dev.spacebench.measure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.agent.InProcessAgent;
import dev.spacebench.channel.AgentChannel;
import dev.spacebench.channel.Channel;
import dev.spacebench.channel.ExecResult;
import dev.spacebench.channel.FileRef;
import dev.spacebench.channel.Lane;
import dev.spacebench.plan.ExecPlan;
import dev.spacebench.plan.FilePlan;
import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.FloorPlan;
import dev.spacebench.plan.Plan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loops see only the {@link Channel} seam: a channel that has no no-op round trip and moves no
 * files (as container exec and a command target without upload will be) gets its exec metrics
 * measured through the real agent, and the rest reported as skipped with its reason, no sample, no zero.
 */
class MeasurementSeamTest {

    private static final int CHUNK = 64 * 1024;
    private static final String NO_NOOP = "this channel has no round trip that runs nothing";
    private static final String NO_FILES = "this channel moves no files";

    @TempDir
    Path dir;

    /** The real agent's exec, seen through the seam only: no no-op, no files, no agent JVM. */
    private record ExecOnly(AgentChannel agent) implements Channel {
        @Override
        public String id() {
            return "exec-only";
        }

        @Override
        public Optional<String> unsupported(Operation operation) {
            return switch (operation) {
                case NOOP -> Optional.of(NO_NOOP);
                case FILES -> Optional.of(NO_FILES);
                case EXEC -> Optional.empty();
            };
        }

        @Override
        public void noop(Duration timeout) {
            throw new UnsupportedOperationException(NO_NOOP);
        }

        @Override
        public ExecResult exec(List<String> argv, Duration timeout) {
            return agent.exec(argv, timeout);
        }

        @Override
        public FileRef upload(Path source, FileRef expected, String remotePath, Lane lane, Duration timeout) {
            throw new UnsupportedOperationException(NO_FILES);
        }

        @Override
        public FileRef download(String remotePath, FileRef expected, Path destination, Lane lane, Duration timeout) {
            throw new UnsupportedOperationException(NO_FILES);
        }

        @Override
        public boolean delete(String remotePath, Duration timeout) {
            throw new UnsupportedOperationException(NO_FILES);
        }

        @Override
        public void close() {
        }
    }

    @Test
    void aMetricTheChannelCannotDoIsSkippedWithItsReasonAndTheOthersAreMeasured() throws IOException {
        List<Sample> samples = new ArrayList<>();
        Map<String, String> skippedSeen = new LinkedHashMap<>();
        List<Progress> progress = new ArrayList<>();
        MeasureListener listener = new MeasureListener() {
            @Override
            public void sample(Sample s) {
                samples.add(s);
            }

            @Override
            public void skipped(String metric, String reason) {
                skippedSeen.put(metric, reason);
            }

            @Override
            public void progress(Progress p) {
                progress.add(p);
            }

            @Override
            public boolean cancelRequested() {
                return false;
            }
        };
        Plan plan = new Plan(new ExecPlan(List.of("noop", "true"), 3, 1, 20),
                new FilePlan(List.of(new FileSize(1000L, 2)), 1, Long.MAX_VALUE, CHUNK), new FloorPlan(false, 1, 0));
        Measurement measurement;
        try (InProcessAgent agent = new InProcessAgent(dir.resolve("agent")); AgentChannel channel = agent.channel(InProcessAgent.TOKEN, CHUNK)) {
            measurement = new Measurement(new ExecOnly(channel), Files.createDirectories(dir.resolve("staging")), listener);
            measurement.run(plan);
        }

        // Through a channel other than the agent every id names it; the agent's stay as they were.
        assertThat(samples).extracting(Sample::metric).containsOnly("via.exec-only.exec.true");
        assertThat(samples).filteredOn(s -> s.phase() == Phase.MEASURED).hasSize(3).allMatch(Sample::ok)
                .allSatisfy(s -> assertThat(s.agentNs()).as("the agent's spawn-to-reap time, through the seam").isPositive());
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("via.exec-only.exec.noop", NO_NOOP);
        expected.put("via.exec-only.file.upload.1000B", NO_FILES);
        expected.put("via.exec-only.file.download.1000B", NO_FILES);
        assertThat(skippedSeen).containsExactlyEntriesOf(expected);
        assertThat(measurement.skipped()).isEqualTo(expected);
        // Skipped work still counts as done, so progress ends at its total: 4 noop + 4 true + 3 file iterations.
        Progress last = progress.get(progress.size() - 1);
        assertThat(last.total()).isEqualTo(4 + 4 + 3);
        assertThat(measurement.agentGcInLoops()).as("no agent JVM behind this channel: no GC counted, not a zero").isNull();
        assertThat(measurement.agentJitSettleBlocks()).isEmpty();
    }
}
