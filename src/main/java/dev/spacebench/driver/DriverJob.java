package dev.spacebench.driver;

import dev.spacebench.plan.ConcurrencyPlan;
import dev.spacebench.plan.ExecPlan;
import dev.spacebench.plan.FilePlan;
import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.FloorPlan;
import dev.spacebench.plan.Plan;
import dev.spacebench.space.ContainerExecAccess;
import dev.spacebench.space.SpaceChannels;
import dev.spacebench.space.SshAccess;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import org.apache.sshd.common.config.keys.PublicKeyEntry;

/**
 * What a driver is asked to measure, sent on its stdin (never its command line, which every user
 * of the host can read in {@code /proc/PID/cmdline}, nor its environment): the channel's address
 * and the Space's token, where the loops may write their files, and the plan.
 *
 * <p>On the wire: {@code "SBDJ"}, a version byte, then the fields below in order (text as UTF-8
 * with an int length, a null as a false boolean before the value). After the job the same pipe
 * carries the worker's single-byte commands ({@link #CANCEL}, {@link #GO}); its end means the worker
 * is gone.
 *
 * @param target {@code HOST:PORT} or {@code unix:/path}: the agent, as {@code AgentChannels#open} takes it
 * @param token the Space's token
 * @param bulkDir the host's path of the Space's bulk lane, or null
 * @param chunkBytes bytes per stream message
 * @param staging an existing host directory for the loops' files
 * @param plan the run's complete plan (defaults applied)
 * @param channels the channels to measure the Space through, in order ({@link SpaceChannels}; {@code agent} is {@code target})
 * @param ssh how to reach the Space's SSH server when {@code channels} has {@code ssh}, else null (its client key stays
 *     in its file: the job carries the path)
 * @param containerExec how to reach a container Space through its engine's exec and cp when {@code channels} has
 *     {@code container-exec}, else null
 */
public record DriverJob(String target, String token, Path bulkDir, int chunkBytes, Path staging, Plan plan, List<String> channels,
                        SshAccess ssh, ContainerExecAccess containerExec) {

    public DriverJob {
        channels = channels == null ? List.of(SpaceChannels.AGENT) : List.copyOf(channels);
    }

    /** A job measuring the agent alone. */
    public DriverJob(String target, String token, Path bulkDir, int chunkBytes, Path staging, Plan plan) {
        this(target, token, bulkDir, chunkBytes, staging, plan, null, null, null);
    }

    /** A job with no container-exec channel. */
    public DriverJob(String target, String token, Path bulkDir, int chunkBytes, Path staging, Plan plan, List<String> channels,
                     SshAccess ssh) {
        this(target, token, bulkDir, chunkBytes, staging, plan, channels, ssh, null);
    }

    /** Worker → driver: stop at the next iteration. */
    public static final int CANCEL = 'C';
    /** Worker → driver: the worker is ready for the measured loop it was told of. */
    public static final int GO = 'G';

    private static final byte[] MAGIC = {'S', 'B', 'D', 'J'};
    /**
     * 2: channels and the SSH server's access after the plan; 3: then the plan's order, block size
     * and seed (issue 29), without which the driver would run an interleaved plan sequentially; 4: then the
     * container-exec access (issue 27).
     */
    private static final int VERSION = 4;

    @Override
    public String toString() {
        // Never the token: a job may end up in a log line.
        return "DriverJob[target=" + target + ", bulkDir=" + bulkDir + ", chunkBytes=" + chunkBytes + ", staging=" + staging
                + ", plan=" + plan + "]";
    }

    public void write(DataOutputStream out) throws IOException {
        out.write(MAGIC);
        out.writeByte(VERSION);
        text(out, target);
        text(out, token);
        text(out, bulkDir == null ? null : bulkDir.toString());
        out.writeInt(chunkBytes);
        text(out, staging.toString());
        ExecPlan exec = plan.exec();
        texts(out, exec.metrics());
        integer(out, exec.n());
        integer(out, exec.warmups());
        integer(out, exec.agentWarmupCalls());
        FilePlan files = plan.files();
        out.writeInt(files.sizes().size());
        for (FileSize size : files.sizes()) {
            along(out, size.bytes());
            integer(out, size.n());
        }
        integer(out, files.warmups());
        along(out, files.bulkThresholdBytes());
        integer(out, files.chunkBytes());
        FloorPlan floor = plan.floor();
        out.writeBoolean(floor != null);
        if (floor != null) {
            out.writeBoolean(floor.enabled() != null);
            if (floor.enabled() != null) {
                out.writeBoolean(floor.enabled());
            }
            integer(out, floor.n());
            integer(out, floor.warmups());
        }
        integer(out, plan.spaces());
        ConcurrencyPlan sweep = plan.concurrency();
        out.writeBoolean(sweep != null);
        if (sweep != null) {
            out.writeInt(sweep.levels().size());
            for (int level : sweep.levels()) {
                out.writeInt(level);
            }
            texts(out, sweep.metrics());
            integer(out, sweep.n());
            along(out, sweep.fileBytes());
            integer(out, sweep.fileN());
        }
        texts(out, channels);
        out.writeBoolean(ssh != null);
        if (ssh != null) {
            text(out, ssh.host());
            out.writeInt(ssh.port());
            text(out, ssh.user());
            text(out, PublicKeyEntry.toString(ssh.hostKey()));
            text(out, ssh.clientKey().toString());
            text(out, ssh.workDir());
        }
        // The interleaved order (issue 29), after version 2's fields.
        text(out, plan.order());
        integer(out, plan.blockSize());
        along(out, plan.seed());
        out.writeBoolean(containerExec != null);
        if (containerExec != null) {
            text(out, containerExec.cli().toString());
            text(out, containerExec.container());
            text(out, containerExec.workDir());
        }
        out.flush();
    }

    /** @throws IOException when the input ends early or is not a job of this version */
    public static DriverJob read(DataInputStream in) throws IOException {
        byte[] magic = in.readNBytes(MAGIC.length);
        if (!java.util.Arrays.equals(magic, MAGIC)) {
            throw new IOException("stdin does not start with a driver job (SBDJ): this main class is started by a worker, not by hand");
        }
        int version = in.readUnsignedByte();
        if (version != VERSION) {
            throw new IOException("the job is format version " + version + ", this driver reads version " + VERSION);
        }
        String target = text(in);
        String token = text(in);
        String bulk = text(in);
        int chunkBytes = in.readInt();
        Path staging = Path.of(text(in));
        ExecPlan exec = new ExecPlan(texts(in), integer(in), integer(in), integer(in));
        int sizeCount = in.readInt();
        List<FileSize> sizes = new ArrayList<>();
        for (int i = 0; i < sizeCount; i++) {
            sizes.add(new FileSize(along(in), integer(in)));
        }
        FilePlan files = new FilePlan(sizes, integer(in), along(in), integer(in));
        FloorPlan floor = null;
        if (in.readBoolean()) {
            Boolean enabled = in.readBoolean() ? in.readBoolean() : null;
            floor = new FloorPlan(enabled, integer(in), integer(in));
        }
        Integer spaces = integer(in);
        ConcurrencyPlan sweep = null;
        if (in.readBoolean()) {
            int levelCount = in.readInt();
            List<Integer> levels = new ArrayList<>();
            for (int i = 0; i < levelCount; i++) {
                levels.add(in.readInt());
            }
            sweep = new ConcurrencyPlan(levels, texts(in), integer(in), along(in), integer(in));
        }
        List<String> channels = texts(in);
        SshAccess ssh = null;
        if (in.readBoolean()) {
            ssh = new SshAccess(text(in), in.readInt(), text(in), publicKey(text(in)), Path.of(text(in)), text(in));
        }
        String order = text(in);
        Integer blockSize = integer(in);
        Long seed = along(in);
        ContainerExecAccess containerExec = in.readBoolean() ? new ContainerExecAccess(Path.of(text(in)), text(in), text(in)) : null;
        return new DriverJob(target, token, bulk == null ? null : Path.of(bulk), chunkBytes, staging,
                new Plan(exec, files, floor, spaces, sweep, order, blockSize, seed), channels, ssh, containerExec);
    }

    private static PublicKey publicKey(String line) throws IOException {
        try {
            return PublicKeyEntry.parsePublicKeyEntry(line).resolvePublicKey(null, null, null);
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new IOException("the job's SSH host key does not read back: " + e.getMessage(), e);
        }
    }

    private static void text(DataOutputStream out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
            out.writeInt(bytes.length);
            out.write(bytes);
        }
    }

    private static String text(DataInputStream in) throws IOException {
        if (!in.readBoolean()) {
            return null;
        }
        int length = in.readInt();
        if (length < 0 || length > (1 << 20)) {
            throw new IOException("a job's text of " + length + " bytes (0 to 1 MiB)");
        }
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length) {
            throw new java.io.EOFException("the job ended in the middle of a text");
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static void texts(DataOutputStream out, List<String> list) throws IOException {
        out.writeInt(list.size());
        for (String s : list) {
            text(out, s);
        }
    }

    private static List<String> texts(DataInputStream in) throws IOException {
        int count = in.readInt();
        if (count < 0 || count > 10_000) {
            throw new IOException("a job's list of " + count + " texts (0 to 10,000)");
        }
        List<String> list = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            list.add(text(in));
        }
        return list;
    }

    private static void integer(DataOutputStream out, Integer v) throws IOException {
        out.writeBoolean(v != null);
        if (v != null) {
            out.writeInt(v);
        }
    }

    private static Integer integer(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readInt() : null;
    }

    private static void along(DataOutputStream out, Long v) throws IOException {
        out.writeBoolean(v != null);
        if (v != null) {
            out.writeLong(v);
        }
    }

    private static Long along(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readLong() : null;
    }
}
