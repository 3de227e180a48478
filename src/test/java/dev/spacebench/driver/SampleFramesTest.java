package dev.spacebench.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spacebench.environment.JvmGc;
import dev.spacebench.measure.Phase;
import dev.spacebench.measure.Progress;
import dev.spacebench.measure.Sample;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/** The driver's pipe format: what goes in comes out; a stream cut short or changed on the way is refused, saying where. */
class SampleFramesTest {

    private static final List<Sample> SAMPLES = List.of(
            new Sample("exec.true", 1, Phase.WARMUP, 1_234_567L, 0, true, null, 890_123L),
            new Sample("exec.true", 1, Phase.MEASURED, 2_000_001L, 0, false, "exit code 1; stderr: nö ✓", null),
            new Sample("file.upload.1MiB", 3, Phase.MEASURED, Long.MAX_VALUE, 1L << 20, true, null, 5L),
            new Sample("sweep.4.exec.sh_c", 7, Phase.MEASURED, 42, 0, true, null, null, 4, 3),
            new Sample("floor.grpc.noop", 12, Phase.MEASURED, 99, 0, true, null, null, null, null, 2, (1L << 40) + 5));

    /** Everything a reader handed on, as text in order. */
    private static final class Seen implements SampleFrames.Handler {
        final List<Object> events = new ArrayList<>();

        @Override
        public void samples(List<Sample> batch) {
            events.addAll(batch);
        }

        @Override
        public void progress(Progress progress) {
            events.add(progress);
        }

        @Override
        public void beforeMeasured(String metric) {
            events.add("before " + metric);
        }

        @Override
        public void sweepWall(String metric, long ns) {
            events.add("wall " + metric + " " + ns);
        }

        @Override
        public void skipped(String metric, String reason) {
            events.add("skipped " + metric + ": " + reason);
        }

        @Override
        public void result(DriverResult result) {
            events.add(result);
        }
    }

    private static byte[] stream() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SampleFrames.Writer writer = new SampleFrames.Writer(out);
        writer.sample(SAMPLES.get(0));
        writer.beforeMeasured("exec.true");
        writer.flush();
        writer.sample(SAMPLES.get(1));
        writer.sample(SAMPLES.get(2));
        writer.progress(new Progress("file.upload.1MiB", Phase.MEASURED, 3, 10, 99, 1000));
        writer.sweepWall("sweep.4.exec.sh_c", 5_000_000_000L);
        writer.sample(SAMPLES.get(3));
        writer.skipped("exec.noop", "container exec has no round trip that runs nothing");
        writer.result(new DriverResult(new JvmGc(2, 3_000_000), null, List.of(7L, 8L), List.of(), 4, FACTS));
        writer.end(SampleFrames.Outcome.SPACE_LOST, "the agent stopped answering at exec.true iteration 9");
        return out.toByteArray();
    }

    /** A floor job's facts (version 2), in their order, one of them not ASCII. */
    private static final java.util.Map<String, String> FACTS = new java.util.LinkedHashMap<>(java.util.Map.of(
            "bare gRPC ping transport", "TCP loopback"));

    static {
        FACTS.put("floor warm-ups", "5 per floor loop – run and dropped");
    }

    @Test
    void whatTheDriverWritesTheWorkerReadsInTheSameOrder() throws IOException {
        Seen seen = new Seen();
        SampleFrames.End end = SampleFrames.read(new ByteArrayInputStream(stream()), seen, () -> {});
        assertThat(seen.events).containsExactly(
                SAMPLES.get(0), "before exec.true", SAMPLES.get(1), SAMPLES.get(2),
                new Progress("file.upload.1MiB", Phase.MEASURED, 3, 10, 99, 1000),
                "wall sweep.4.exec.sh_c 5000000000", SAMPLES.get(3),
                "skipped exec.noop: container exec has no round trip that runs nothing",
                new DriverResult(new JvmGc(2, 3_000_000), null, List.of(7L, 8L), List.of(), 4, FACTS));
        assertThat(end).isEqualTo(new SampleFrames.End(SampleFrames.Outcome.SPACE_LOST,
                "the agent stopped answering at exec.true iteration 9"));
    }

    @Test
    void aStreamBuiltByHandFromTheDocumentedLayoutIsRead() throws IOException {
        // "SBDF", version 2, then one end frame: type 'E', length, payload (outcome 0, text length 0), CRC-32 of type+length+payload.
        ByteBuffer payload = ByteBuffer.allocate(5).put((byte) 0).putInt(0);
        ByteBuffer frameHead = ByteBuffer.allocate(5).put((byte) 'E').putInt(5);
        CRC32 crc = new CRC32();
        crc.update(frameHead.array());
        crc.update(payload.array());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("SBDF".getBytes(StandardCharsets.US_ASCII));
        out.write(2);
        out.writeBytes(frameHead.array());
        out.writeBytes(payload.array());
        out.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
        assertThat(SampleFrames.read(new ByteArrayInputStream(out.toByteArray()), new Seen(), () -> {}))
                .isEqualTo(new SampleFrames.End(SampleFrames.Outcome.DONE, null));
    }

    @Test
    void aStreamCutAnywhereBeforeItsEndIsRefusedAsEndedWithoutItsEndFrame() throws IOException {
        byte[] whole = stream();
        for (int length = 0; length < whole.length; length++) {
            byte[] cut = java.util.Arrays.copyOf(whole, length);
            assertThatThrownBy(() -> SampleFrames.read(new ByteArrayInputStream(cut), new Seen(), () -> {}))
                    .as("cut at %d of %d bytes", length, whole.length)
                    .isInstanceOf(SampleFrames.CorruptStreamException.class)
                    .hasMessageMatching(length < 5 ? ".*header.*|.*ended.*" : ".*ended at byte \\d+.*without its end frame.*");
        }
    }

    @Test
    void anyChangedByteInAFrameIsRefusedByItsChecksum() throws IOException {
        byte[] whole = stream();
        // Every byte after the header: a frame's type, length, payload or checksum.
        for (int at = 5; at < whole.length; at++) {
            byte[] changed = whole.clone();
            changed[at] ^= 0x10;
            assertThatThrownBy(() -> SampleFrames.read(new ByteArrayInputStream(changed), new Seen(), () -> {}))
                    .as("byte %d of %d changed", at, whole.length)
                    .isInstanceOf(SampleFrames.CorruptStreamException.class)
                    .hasMessageContaining("the driver's output");
        }
    }

    @Test
    void anotherVersionOrSomethingAfterTheEndIsRefused() throws IOException {
        byte[] whole = stream();
        byte[] otherVersion = whole.clone();
        otherVersion[4] = 1;
        assertThatThrownBy(() -> SampleFrames.read(new ByteArrayInputStream(otherVersion), new Seen(), () -> {}))
                .hasMessageContaining("format version 1, this worker reads version 2");
        byte[] more = java.util.Arrays.copyOf(whole, whole.length + 1);
        assertThatThrownBy(() -> SampleFrames.read(new ByteArrayInputStream(more), new Seen(), () -> {}))
                .hasMessageContaining("goes on after its end frame");
        byte[] notOurs = "hello world".getBytes(StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> SampleFrames.read(new ByteArrayInputStream(notOurs), new Seen(), () -> {}))
                .hasMessageContaining("not a driver stream");
    }
}
