package dev.spacebench.driver;

import dev.spacebench.channel.command.CommandAccess;
import dev.spacebench.channel.command.CommandStep;
import dev.spacebench.channel.command.CommandTarget;
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
 * What a driver is asked to measure ({@link Task}: a Space's loops, the floor before any Space, or
 * one level of a concurrency sweep), sent on its stdin (never its command line, which every user
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
 * @param task what to run: {@link Task#LOOPS} uses every field above; {@link Task#FLOOR} only {@code plan} and
 *     {@code staging} (where the bare ping's unix socket goes; null: TCP loopback); {@link Task#SWEEP_LEVEL} {@code plan},
 *     {@code chunkBytes}, {@code staging} (the run's directory, with {@code sweep-L-i} in it for Space i) and {@code sweep}
 * @param sweep a sweep level's Spaces, in order (Space i is the i-th), as many as the level; empty for other tasks
 * @param entries a comparison run's Spaces in entry order (issue 29), the first the one {@code target} … {@code ssh} name;
 *     empty for a run of one Space
 * @param command how to reach a command target's Space when {@code channels} has {@code command} (then {@code target} and
 *     {@code token} are null: it has no agent), else null
 */
public record DriverJob(String target, String token, Path bulkDir, int chunkBytes, Path staging, Plan plan, List<String> channels,
                        SshAccess ssh, ContainerExecAccess containerExec, Task task, List<Target> sweep, List<Entry> entries,
                        CommandAccess command) {

    /** What a driver runs. */
    public enum Task {
        /** The plan's loops through each of its channels to one Space (and, interleaved, the floor's blocks among them). */
        LOOPS,
        /** The plan's floor on the host, before any Space exists (interleaved: only the timer's reading and the floor's facts). */
        FLOOR,
        /** One level of the plan's concurrency sweep: its loops in every one of its Spaces at once, the Spaces made by the worker. */
        SWEEP_LEVEL
    }

    /**
     * One Space of a sweep level, as the driver reaches its agent.
     *
     * @param target {@code HOST:PORT} or {@code unix:/path}
     * @param token its token
     * @param bulkDir the host's path of its bulk lane, or null
     */
    public record Target(String target, String token, Path bulkDir) {
        @Override
        public String toString() {
            return "Target[" + target + ", bulkDir=" + bulkDir + "]"; // never the token
        }
    }

    public DriverJob {
        channels = channels == null ? List.of(SpaceChannels.AGENT) : List.copyOf(channels);
        task = task == null ? Task.LOOPS : task;
        sweep = sweep == null ? List.of() : List.copyOf(sweep);
        entries = entries == null ? List.of() : List.copyOf(entries);
    }

    /**
     * One Space of a comparison run, as the job's own fields name the first.
     *
     * @param label the entry's label (for the driver's words only: the worker tags samples by the ids' entry)
     */
    public record Entry(String label, String target, String token, Path bulkDir, List<String> channels, SshAccess ssh) {

        public Entry {
            channels = channels == null ? List.of(SpaceChannels.AGENT) : List.copyOf(channels);
        }

        @Override
        public String toString() {
            return "Entry[label=" + label + ", target=" + target + "]";
        }
    }

    /** A job running the loops of one Space through {@code channels}. */
    public DriverJob(String target, String token, Path bulkDir, int chunkBytes, Path staging, Plan plan, List<String> channels,
                     SshAccess ssh, ContainerExecAccess containerExec) {
        this(target, token, bulkDir, chunkBytes, staging, plan, channels, ssh, containerExec, Task.LOOPS, null, null, null);
    }

    /** A comparison run's job: its first entry in the job's own fields, every entry in {@code entries}. */
    public static DriverJob comparing(List<Entry> entries, int chunkBytes, Path staging, Plan plan) {
        Entry first = entries.get(0);
        return new DriverJob(first.target(), first.token(), first.bulkDir(), chunkBytes, staging, plan, first.channels(), first.ssh(),
                null, Task.LOOPS, null, entries, null);
    }

    /** A job running the loops of one Space through {@code channels}, {@code command} its command target's access (or null). */
    public DriverJob(String target, String token, Path bulkDir, int chunkBytes, Path staging, Plan plan, List<String> channels,
                     SshAccess ssh, ContainerExecAccess containerExec, CommandAccess command) {
        this(target, token, bulkDir, chunkBytes, staging, plan, channels, ssh, containerExec, Task.LOOPS, null, null, command);
    }

    /** A job measuring the agent alone. */
    public DriverJob(String target, String token, Path bulkDir, int chunkBytes, Path staging, Plan plan) {
        this(target, token, bulkDir, chunkBytes, staging, plan, null, null, null, null);
    }

    /** A job with no container-exec channel. */
    public DriverJob(String target, String token, Path bulkDir, int chunkBytes, Path staging, Plan plan, List<String> channels,
                     SshAccess ssh) {
        this(target, token, bulkDir, chunkBytes, staging, plan, channels, ssh, null, null);
    }

    /**
     * The plan's floor, on the host.
     *
     * @param unixSocketDir where the bare ping's unix socket goes (a Space reached through one); null: over TCP loopback
     */
    public static DriverJob floor(Plan plan, Path unixSocketDir) {
        return new DriverJob(null, null, null, plan.files().chunkBytes(), unixSocketDir, plan, List.of(), null, null, Task.FLOOR, null, null, null);
    }

    /**
     * One level of the plan's concurrency sweep: {@code spaces.size()} is the level.
     *
     * @param staging the run's directory; Space i's files go in {@code sweep-L-i} in it, which must exist
     */
    public static DriverJob sweepLevel(Plan plan, Path staging, List<Target> spaces) {
        return new DriverJob(null, null, null, plan.files().chunkBytes(), staging, plan, List.of(), null, null, Task.SWEEP_LEVEL, spaces, null, null);
    }

    /** Worker → driver: stop at the next iteration. */
    public static final int CANCEL = 'C';
    /** Worker → driver: the worker is ready for the measured loop it was told of. */
    public static final int GO = 'G';

    private static final byte[] MAGIC = {'S', 'B', 'D', 'J'};
    /**
     * 2: channels and the SSH server's access after the plan; 3: then the plan's order, block size
     * and seed (issue 29), without which the driver would run an interleaved plan sequentially; 4: then the
     * container-exec access (issue 27); 5: then the task and a sweep level's Spaces (issue 28: the floor and the
     * sweep run in a driver too); 6: then a comparison run's entries (issue 29); 7: then a command target's access (issue 27: operator
     * targets of {@code spacebench.targets-file}).
     */
    private static final int VERSION = 7;

    @Override
    public String toString() {
        // Never the token: a job may end up in a log line.
        return "DriverJob[task=" + task + ", target=" + target + ", sweep=" + sweep + ", bulkDir=" + bulkDir + ", chunkBytes=" + chunkBytes + ", staging=" + staging
                + ", plan=" + plan + (entries.isEmpty() ? "" : ", entries=" + entries) + "]";
    }

    public void write(DataOutputStream out) throws IOException {
        out.write(MAGIC);
        out.writeByte(VERSION);
        text(out, target);
        text(out, token);
        text(out, bulkDir == null ? null : bulkDir.toString());
        out.writeInt(chunkBytes);
        text(out, staging == null ? null : staging.toString());
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
        ssh(out, ssh);
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
        // Version 5: the task, and a sweep level's Spaces.
        out.writeByte(task.ordinal());
        out.writeInt(this.sweep.size());
        for (Target space : this.sweep) {
            text(out, space.target());
            text(out, space.token());
            text(out, space.bulkDir() == null ? null : space.bulkDir().toString());
        }
        // Version 6: a comparison's entries (issue 29).
        out.writeInt(entries.size());
        for (Entry entry : entries) {
            text(out, entry.label());
            text(out, entry.target());
            text(out, entry.token());
            text(out, entry.bulkDir() == null ? null : entry.bulkDir().toString());
            texts(out, entry.channels());
            ssh(out, entry.ssh());
        }
        // A command target's commands and id (version 7).
        out.writeBoolean(command != null);
        if (command != null) {
            CommandTarget t = command.target();
            text(out, t.name());
            text(out, command.id());
            text(out, t.workDir());
            for (CommandStep step : java.util.Arrays.asList(t.create(), t.exec(), t.upload(), t.download(), t.delete())) {
                out.writeBoolean(step != null);
                if (step != null) {
                    texts(out, step.argv());
                    out.writeLong(step.timeout().toNanos());
                }
            }
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
        String stagingText = text(in);
        Path staging = stagingText == null ? null : Path.of(stagingText);
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
        SshAccess ssh = ssh(in);
        String order = text(in);
        Integer blockSize = integer(in);
        Long seed = along(in);
        ContainerExecAccess containerExec = in.readBoolean() ? new ContainerExecAccess(Path.of(text(in)), text(in), text(in)) : null;
        int taskOrdinal = in.readUnsignedByte();
        if (taskOrdinal >= Task.values().length) {
            throw new IOException("the job's task " + taskOrdinal + " is none this driver knows (0 to " + (Task.values().length - 1) + ")");
        }
        int spaceCount = in.readInt();
        if (spaceCount < 0 || spaceCount > 10_000) {
            throw new IOException("a job's sweep level of " + spaceCount + " Spaces (0 to 10,000)");
        }
        List<Target> targets = new ArrayList<>();
        for (int i = 0; i < spaceCount; i++) {
            String spaceTarget = text(in);
            String spaceToken = text(in);
            String spaceBulk = text(in);
            targets.add(new Target(spaceTarget, spaceToken, spaceBulk == null ? null : Path.of(spaceBulk)));
        }
        int entryCount = in.readInt();
        if (entryCount < 0 || entryCount > 16) {
            throw new IOException("a job's " + entryCount + " comparison entries (0 to 16)");
        }
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < entryCount; i++) {
            String label = text(in);
            String entryTarget = text(in);
            String entryToken = text(in);
            String entryBulk = text(in);
            entries.add(new Entry(label, entryTarget, entryToken, entryBulk == null ? null : Path.of(entryBulk), texts(in), ssh(in)));
        }
        CommandAccess command = null;
        if (in.readBoolean()) {
            String name = text(in);
            String id = text(in);
            String workDir = text(in);
            CommandStep[] steps = new CommandStep[5];
            for (int i = 0; i < steps.length; i++) {
                steps[i] = in.readBoolean() ? new CommandStep(texts(in), java.time.Duration.ofNanos(in.readLong())) : null;
            }
            command = new CommandAccess(new CommandTarget(name, steps[0], steps[1], steps[2], steps[3], steps[4], workDir), id);
        }
        return new DriverJob(target, token, bulk == null ? null : Path.of(bulk), chunkBytes, staging,
                new Plan(exec, files, floor, spaces, sweep, order, blockSize, seed), channels, ssh, containerExec, Task.values()[taskOrdinal], targets, entries,
                command);
    }

    private static void ssh(DataOutputStream out, SshAccess ssh) throws IOException {
        out.writeBoolean(ssh != null);
        if (ssh != null) {
            text(out, ssh.host());
            out.writeInt(ssh.port());
            text(out, ssh.user());
            text(out, PublicKeyEntry.toString(ssh.hostKey()));
            text(out, ssh.clientKey().toString());
            text(out, ssh.workDir());
        }
    }

    private static SshAccess ssh(DataInputStream in) throws IOException {
        if (!in.readBoolean()) {
            return null;
        }
        return new SshAccess(text(in), in.readInt(), text(in), publicKey(text(in)), Path.of(text(in)), text(in));
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
