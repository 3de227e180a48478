package dev.spacebench.driver;

import dev.spacebench.environment.JvmGc;
import dev.spacebench.measure.Phase;
import dev.spacebench.measure.Progress;
import dev.spacebench.measure.Sample;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * The driver's output pipe (driver → worker): what the loops report, as compact binary frames
 * written in batches (one {@code write} per batch, not per sample).
 *
 * <pre>
 * stream  = MAGIC "SBDF" · VERSION (1 byte) · frame* · END frame
 * frame   = type (1 byte) · length (int, payload bytes, 0..{@value #MAX_PAYLOAD}) · payload · CRC-32 (int) of type, length and payload
 * </pre>
 *
 * Types: {@code N} a metric id's index (u16, then its UTF text), sent once before its first use;
 * {@code S} samples (count, then each: metric index, iteration, phase, ns, bytes, flags, and the
 * agent's ns, error, level and Space index where the flags say); {@code P} progress; {@code B}
 * before a metric's measured loop (the driver then waits for the worker's go); {@code W} a sweep's
 * wall time; {@code K} a metric the channel cannot do, with its reason; {@code R} the run's facts ({@link DriverResult}; version 2: a floor job's facts after them, count then key and value texts); {@code E} the end: an outcome byte
 * and a message. A stream is whole only with its end frame: one that stops before it (the driver
 * died), has a frame whose checksum does not match, an unknown type or version, or anything after
 * the end frame, is refused with a {@link CorruptStreamException} saying where.
 */
public final class SampleFrames {

    static final byte[] MAGIC = {'S', 'B', 'D', 'F'};
    /** 2: the result frame ends with the floor's facts (issue 28: the floor runs in a driver). */
    public static final int VERSION = 2;
    /** A frame's payload is at most this many bytes: a longer length is corruption, not a frame. */
    static final int MAX_PAYLOAD = 8 << 20;

    static final byte NAME = 'N';
    static final byte SAMPLES = 'S';
    static final byte PROGRESS = 'P';
    static final byte BEFORE_MEASURED = 'B';
    static final byte SWEEP_WALL = 'W';
    static final byte SKIPPED = 'K';
    static final byte RESULT = 'R';
    static final byte END = 'E';

    private static final int HAS_AGENT_NS = 1;
    private static final int HAS_ERROR = 2;
    private static final int HAS_SWEEP = 4;
    private static final int OK = 8;
    /** An interleaved run's block (int) and seq (long) follow. */
    private static final int HAS_BLOCK = 16;

    /** How the driver's work ended, as its end frame says. */
    public enum Outcome {
        /** The plan's loops ran to their end. */
        DONE,
        /** Stopped at a cancel request, between iterations. */
        CANCELLED,
        /** The agent stopped answering or a disk was full ({@link dev.spacebench.measure.SpaceLostException}). */
        SPACE_LOST,
        /** Too many failures in a row ({@link dev.spacebench.measure.AbortedException}). */
        ABORTED,
        /** Anything else went wrong in the driver; the message says what. */
        FAILED
    }

    /** A stream that is not a whole, well-formed driver stream. */
    public static final class CorruptStreamException extends IOException {
        public CorruptStreamException(String message) {
            super(message);
        }
    }

    private SampleFrames() {}

    /** What a reader hands on, in the order written. */
    public interface Handler {
        void samples(List<Sample> batch);

        void progress(Progress progress);

        /** The driver waits after this until the worker says go. */
        void beforeMeasured(String metric);

        void sweepWall(String metric, long ns);

        void skipped(String metric, String reason);

        void result(DriverResult result);
    }

    /** The end frame: how it ended and, unless {@link Outcome#DONE}, why. */
    public record End(Outcome outcome, String message) {}

    /**
     * The driver's side: frames buffered in memory, written to the pipe by {@link #flush()} in one
     * write. Not thread-safe: the measuring thread only.
     */
    public static final class Writer {
        private final OutputStream out;
        private final ByteArrayOutputStream frame = new ByteArrayOutputStream(256);
        private final DataOutputStream payload = new DataOutputStream(frame);
        private final ByteArrayOutputStream batch = new ByteArrayOutputStream(64 * 1024);
        private final DataOutputStream batchData = new DataOutputStream(batch);
        private final Map<String, Integer> names = new HashMap<>();
        private final List<Sample> samples = new ArrayList<>();
        private final CRC32 crc = new CRC32();

        /** Writes the stream's header into the first batch. */
        public Writer(OutputStream out) {
            this.out = out;
            batch.writeBytes(MAGIC);
            batch.write(VERSION);
        }

        /** Samples kept since the last {@link #flush()}. */
        public int pendingSamples() {
            return samples.size();
        }

        public void sample(Sample sample) {
            samples.add(sample);
        }

        public void progress(Progress p) throws IOException {
            closeSamples();
            int metric = name(p.metric());
            begin();
            payload.writeShort(metric);
            payload.writeByte(p.phase().ordinal());
            payload.writeInt(p.iteration());
            payload.writeInt(p.iterations());
            payload.writeLong(p.done());
            payload.writeLong(p.total());
            end(PROGRESS);
        }

        public void beforeMeasured(String metric) throws IOException {
            closeSamples();
            int index = name(metric);
            begin();
            payload.writeShort(index);
            end(BEFORE_MEASURED);
        }

        public void sweepWall(String metric, long ns) throws IOException {
            closeSamples();
            int index = name(metric);
            begin();
            payload.writeShort(index);
            payload.writeLong(ns);
            end(SWEEP_WALL);
        }

        public void skipped(String metric, String reason) throws IOException {
            closeSamples();
            int index = name(metric);
            begin();
            payload.writeShort(index);
            writeText(reason);
            end(SKIPPED);
        }

        public void result(DriverResult r) throws IOException {
            closeSamples();
            begin();
            writeGc(r.agentGcInLoops());
            writeGc(r.hostGcInLoops());
            writeLongs(r.jitSettleBlocks());
            writeLongs(r.execJitSettleBlocks());
            payload.writeInt(r.fileWarmupTransfers());
            payload.writeInt(r.floorFacts().size());
            for (Map.Entry<String, String> fact : r.floorFacts().entrySet()) {
                writeText(fact.getKey());
                writeText(fact.getValue());
            }
            end(RESULT);
        }

        /** The end frame, then a flush: nothing may follow it. */
        public void end(Outcome outcome, String message) throws IOException {
            closeSamples();
            begin();
            payload.writeByte(outcome.ordinal());
            writeText(message == null ? "" : message);
            end(END);
            flush();
        }

        /** Writes everything buffered to the pipe, in one write, and flushes it. */
        public void flush() throws IOException {
            closeSamples();
            if (batch.size() > 0) {
                batch.writeTo(out);
                batch.reset();
            }
            out.flush();
        }

        private void closeSamples() throws IOException {
            if (samples.isEmpty()) {
                return;
            }
            for (Sample s : samples) {
                name(s.metric());
            }
            begin();
            payload.writeInt(samples.size());
            for (Sample s : samples) {
                payload.writeShort(names.get(s.metric()));
                payload.writeInt(s.iteration());
                payload.writeByte(s.phase().ordinal());
                payload.writeLong(s.ns());
                payload.writeLong(s.bytes());
                int flags = (s.ok() ? OK : 0) | (s.agentNs() != null ? HAS_AGENT_NS : 0) | (s.error() != null ? HAS_ERROR : 0)
                        | (s.level() != null ? HAS_SWEEP : 0) | (s.block() != null ? HAS_BLOCK : 0);
                payload.writeByte(flags);
                if (s.agentNs() != null) {
                    payload.writeLong(s.agentNs());
                }
                if (s.error() != null) {
                    writeText(s.error());
                }
                if (s.level() != null) {
                    payload.writeInt(s.level());
                    payload.writeInt(s.spaceIndex() == null ? 0 : s.spaceIndex());
                }
                if (s.block() != null) {
                    payload.writeInt(s.block());
                    payload.writeLong(s.seq() == null ? 0 : s.seq());
                }
            }
            samples.clear();
            end(SAMPLES);
        }

        private int name(String metric) throws IOException {
            Integer index = names.get(metric);
            if (index != null) {
                return index;
            }
            int next = names.size();
            if (next > 0xFFFF) {
                throw new IOException("more than 65,536 metric ids in one run");
            }
            names.put(metric, next);
            begin();
            payload.writeShort(next);
            writeText(metric);
            end(NAME);
            return next;
        }

        private void begin() {
            frame.reset();
        }

        private void end(byte type) throws IOException {
            int length = frame.size();
            if (length > MAX_PAYLOAD) {
                throw new IOException("a frame of " + length + " bytes is over the format's " + MAX_PAYLOAD);
            }
            byte[] body = frame.toByteArray();
            crc.reset();
            crc.update(type);
            crc.update(intBytes(length));
            crc.update(body);
            batchData.writeByte(type);
            batchData.writeInt(length);
            batchData.write(body);
            batchData.writeInt((int) crc.getValue());
            frame.reset();
        }

        private void writeGc(JvmGc gc) throws IOException {
            payload.writeBoolean(gc != null);
            if (gc != null) {
                payload.writeLong(gc.count());
                payload.writeLong(gc.timeNs());
            }
        }

        private void writeLongs(List<Long> values) throws IOException {
            payload.writeInt(values.size());
            for (long v : values) {
                payload.writeLong(v);
            }
        }

        /** UTF-8 with an int length: {@code writeUTF} caps at 64 KiB, and an error message may be longer. */
        private void writeText(String text) throws IOException {
            byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            payload.writeInt(bytes.length);
            payload.write(bytes);
        }
    }

    private static byte[] intBytes(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    /**
     * The worker's side: reads frames until the end frame, handing each to {@code handler}.
     *
     * @param afterBatch run whenever no more bytes are waiting in the pipe (a batch has been read):
     *     the place to poll for a cancel without blocking the driver
     * @return the end frame
     * @throws CorruptStreamException when the stream is not whole: a bad header, checksum, type or
     *     length, or its end before the end frame (the message says at which byte)
     * @throws IOException when the pipe cannot be read
     */
    public static End read(InputStream in, Handler handler, Runnable afterBatch) throws IOException {
        Reader reader = new Reader(in);
        reader.header();
        while (true) {
            End end = reader.frame(handler);
            if (end != null) {
                reader.expectNothingAfter();
                return end;
            }
            if (in.available() == 0) {
                afterBatch.run();
            }
        }
    }

    private static final class Reader {
        private final InputStream raw;
        private final DataInputStream in;
        private final Map<Integer, String> names = new HashMap<>();
        private final CRC32 crc = new CRC32();
        private long offset;

        Reader(InputStream raw) {
            this.raw = raw;
            this.in = new DataInputStream(raw);
        }

        void header() throws IOException {
            byte[] magic = new byte[MAGIC.length + 1];
            fill(magic, "its header");
            for (int i = 0; i < MAGIC.length; i++) {
                if (magic[i] != MAGIC[i]) {
                    throw new CorruptStreamException("the driver's output does not start with its header (SBDF): not a driver stream");
                }
            }
            if (magic[MAGIC.length] != VERSION) {
                throw new CorruptStreamException("the driver's output is format version " + magic[MAGIC.length]
                        + ", this worker reads version " + VERSION + " (a driver from another build?)");
            }
        }

        /** @return the end frame, or null after any other */
        End frame(Handler handler) throws IOException {
            long at = offset;
            int type = raw.read();
            if (type < 0) {
                throw new CorruptStreamException("the driver's output ended at byte " + at + " without its end frame");
            }
            offset++;
            byte[] lengthBytes = new byte[4];
            fill(lengthBytes, "a frame's length");
            int length = ((lengthBytes[0] & 0xFF) << 24) | ((lengthBytes[1] & 0xFF) << 16) | ((lengthBytes[2] & 0xFF) << 8)
                    | (lengthBytes[3] & 0xFF);
            if (length < 0 || length > MAX_PAYLOAD) {
                throw new CorruptStreamException("the driver's output is corrupt at byte " + at + ": a frame length of " + length
                        + " bytes (0 to " + MAX_PAYLOAD + ")");
            }
            byte[] body = new byte[length];
            fill(body, "a frame's payload");
            byte[] sum = new byte[4];
            fill(sum, "a frame's checksum");
            crc.reset();
            crc.update(type);
            crc.update(lengthBytes);
            crc.update(body);
            int expected = (int) crc.getValue();
            int got = ((sum[0] & 0xFF) << 24) | ((sum[1] & 0xFF) << 16) | ((sum[2] & 0xFF) << 8) | (sum[3] & 0xFF);
            if (expected != got) {
                throw new CorruptStreamException("the driver's output is corrupt at byte " + at + ": the frame's checksum does not match");
            }
            DataInputStream p = new DataInputStream(new java.io.ByteArrayInputStream(body));
            try {
                return decode((byte) type, p, handler, at);
            } catch (EOFException e) {
                throw new CorruptStreamException("the driver's output is corrupt at byte " + at + ": a frame shorter than its fields");
            }
        }

        private End decode(byte type, DataInputStream p, Handler handler, long at) throws IOException {
            switch (type) {
                case NAME -> names.put(p.readUnsignedShort(), readText(p));
                case SAMPLES -> {
                    int count = p.readInt();
                    List<Sample> batch = new ArrayList<>(Math.max(0, Math.min(count, 100_000)));
                    for (int i = 0; i < count; i++) {
                        String metric = name(p.readUnsignedShort(), at);
                        int iteration = p.readInt();
                        Phase phase = phase(p.readUnsignedByte(), at);
                        long ns = p.readLong();
                        long bytes = p.readLong();
                        int flags = p.readUnsignedByte();
                        Long agentNs = (flags & HAS_AGENT_NS) != 0 ? p.readLong() : null;
                        String error = (flags & HAS_ERROR) != 0 ? readText(p) : null;
                        Integer level = null;
                        Integer spaceIndex = null;
                        if ((flags & HAS_SWEEP) != 0) {
                            level = p.readInt();
                            spaceIndex = p.readInt();
                        }
                        Integer block = null;
                        Long seq = null;
                        if ((flags & HAS_BLOCK) != 0) {
                            block = p.readInt();
                            seq = p.readLong();
                        }
                        batch.add(new Sample(metric, iteration, phase, ns, bytes, (flags & OK) != 0, error, agentNs, level, spaceIndex,
                                block, seq));
                    }
                    handler.samples(batch);
                }
                case PROGRESS -> handler.progress(new Progress(name(p.readUnsignedShort(), at), phase(p.readUnsignedByte(), at),
                        p.readInt(), p.readInt(), p.readLong(), p.readLong()));
                case BEFORE_MEASURED -> handler.beforeMeasured(name(p.readUnsignedShort(), at));
                case SWEEP_WALL -> handler.sweepWall(name(p.readUnsignedShort(), at), p.readLong());
                case SKIPPED -> handler.skipped(name(p.readUnsignedShort(), at), readText(p));
                case RESULT -> handler.result(new DriverResult(readGc(p), readGc(p), readLongs(p), readLongs(p), p.readInt(), readFacts(p)));
                case END -> {
                    int outcome = p.readUnsignedByte();
                    if (outcome >= Outcome.values().length) {
                        throw new CorruptStreamException("the driver's output is corrupt at byte " + at + ": end outcome " + outcome);
                    }
                    String message = readText(p);
                    return new End(Outcome.values()[outcome], message.isEmpty() ? null : message);
                }
                default -> throw new CorruptStreamException("the driver's output is corrupt at byte " + at + ": unknown frame type "
                        + (type & 0xFF));
            }
            if (p.available() != 0) {
                throw new CorruptStreamException("the driver's output is corrupt at byte " + at + ": " + p.available()
                        + " bytes left over in a frame");
            }
            return null;
        }

        void expectNothingAfter() throws IOException {
            if (raw.read() >= 0) {
                throw new CorruptStreamException("the driver's output goes on after its end frame (byte " + offset + ")");
            }
        }

        private String name(int index, long at) throws CorruptStreamException {
            String name = names.get(index);
            if (name == null) {
                throw new CorruptStreamException("the driver's output is corrupt at byte " + at + ": metric index " + index
                        + " was never named");
            }
            return name;
        }

        private static Phase phase(int ordinal, long at) throws CorruptStreamException {
            if (ordinal >= Phase.values().length) {
                throw new CorruptStreamException("the driver's output is corrupt at byte " + at + ": phase " + ordinal);
            }
            return Phase.values()[ordinal];
        }

        private static String readText(DataInputStream p) throws IOException {
            int length = p.readInt();
            if (length < 0 || length > p.available()) {
                throw new EOFException();
            }
            return new String(p.readNBytes(length), java.nio.charset.StandardCharsets.UTF_8);
        }

        private static JvmGc readGc(DataInputStream p) throws IOException {
            return p.readBoolean() ? new JvmGc(p.readLong(), p.readLong()) : null;
        }

        private static Map<String, String> readFacts(DataInputStream p) throws IOException {
            int count = p.readInt();
            if (count < 0 || count > p.available() / 8) {
                throw new EOFException();
            }
            Map<String, String> facts = new java.util.LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                facts.put(readText(p), readText(p));
            }
            return facts;
        }

        private static List<Long> readLongs(DataInputStream p) throws IOException {
            int count = p.readInt();
            if (count < 0 || count > p.available() / 8) {
                throw new EOFException();
            }
            List<Long> values = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                values.add(p.readLong());
            }
            return List.copyOf(values);
        }

        private void fill(byte[] into, String what) throws IOException {
            int n = raw.readNBytes(into, 0, into.length);
            offset += n;
            if (n < into.length) {
                throw new CorruptStreamException("the driver's output ended at byte " + offset + " in the middle of " + what
                        + ", without its end frame");
            }
        }
    }
}
