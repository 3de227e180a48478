package dev.spacebench.floor;

import dev.spacebench.stats.Percentiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The floors on their own, for the floor-ratio benchmark script, each printed as one line of JSON:
 * <ul>
 *   <li>{@code floor stream BYTES N WARMUPS [hash]}: a bare gRPC stream of BYTES each way to a server
 *       process of its own (no Space, no files; with {@code hash}, SHA-256 on both sides as the agent and host do)
 *       {@code {"bytes": …, "n": …, "hash": …, "uploadP50Ns": …, "downloadP50Ns": …}};</li>
 *   <li>{@code floor ping tcp|unix N WARMUPS}: a bare gRPC ping over TCP loopback or a unix socket to
 *       a server process of its own ({@link BareServerProcess})
 *       {@code {"transport": …, "n": …, "p50Ns": …, "p99Ns": …}};</li>
 *   <li>{@code floor cost N WARMUPS [JVM option…]}: what the harness costs per round trip (CPU,
 *       context switches, threads woken, allocation, GC) for an agent started with those extra
 *       options, and the bare floors beside it ({@link HarnessCost}; a table, not JSON);</li>
 *   <li>{@code floor transfer BYTES N WARMUPS [JVM option…]}: after WARMUPS uploads and downloads of a
 *       run's 16 MiB warm-up file (a run makes 16; 0: none), what each stream-lane upload and download of BYTES costs the agent and the client (CPU, allocation, GC, the agent's resident memory), for
 *       an agent started with those extra options ({@link TransferCost}; a table).</li>
 * </ul>
 * Subcommands of {@code cli.SpacebenchCommand}'s {@code floor}: exit 0 done, 2 on bad usage (the error
 * and the usage on stderr), 1 when the floor fails.
 */
@Command(name = "floor", usageHelpWidth = 120, description = "Bare gRPC floors and harness costs for the benchmark scripts (stream, ping, cost, transfer).",
        subcommands = {FloorCommand.Stream.class, FloorCommand.Ping.class, FloorCommand.Cost.class, FloorCommand.Transfer.class},
        footer = {"", "Exit codes: 0 measured; 1 the floor failed; 2 bad usage."})
public final class FloorCommand {

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    /** {@code floor stream BYTES N WARMUPS [hash]}. */
    @Command(name = "stream", usageHelpWidth = 120,
            description = "A bare gRPC stream of BYTES each way to a server process of its own; prints one line of JSON.")
    static final class Stream implements Callable<Integer> {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        boolean help;
        @Parameters(index = "0", paramLabel = "BYTES", description = "bytes each way")
        int bytes;
        @Parameters(index = "1", paramLabel = "N", description = "measured round trips")
        int n;
        @Parameters(index = "2", paramLabel = "WARMUPS", description = "round trips before them")
        int warmups;
        @Parameters(index = "3", arity = "0..1", paramLabel = "hash", description = "SHA-256 on both sides, as the agent and host do")
        Hash hash;

        @Override
        public Integer call() {
            return failing("floor stream", () -> {
                BareGrpcStream.Result result = BareGrpcStream.run(bytes, 1 << 20, n, warmups, hash != null);
                long[] up = result.uploadNs().clone();
                long[] down = result.downloadNs().clone();
                Arrays.sort(up);
                Arrays.sort(down);
                System.out.println("{\"bytes\": " + bytes + ", \"n\": " + n + ", \"hash\": " + (hash != null) + ", \"uploadP50Ns\": "
                        + Percentiles.of(up, 50) + ", \"downloadP50Ns\": " + Percentiles.of(down, 50) + "}");
            });
        }
    }

    /** The one word {@code floor stream} takes after WARMUPS. */
    enum Hash { hash }

    /** The transports {@code floor ping} measures. */
    enum Transport { tcp, unix }

    /** {@code floor ping tcp|unix N WARMUPS}. */
    @Command(name = "ping", usageHelpWidth = 120,
            description = "A bare gRPC ping over TCP loopback or a unix socket to a server process of its own; prints one line of JSON.")
    static final class Ping implements Callable<Integer> {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        boolean help;
        @Parameters(index = "0", paramLabel = "tcp|unix", description = "the transport")
        Transport transport;
        @Parameters(index = "1", paramLabel = "N", description = "measured pings")
        int n;
        @Parameters(index = "2", paramLabel = "WARMUPS", description = "pings before them")
        int warmups;

        @Override
        public Integer call() {
            return failing("floor ping", () -> {
                Path socket = transport == Transport.unix ? Files.createTempDirectory("spacebench-floor").resolve("ping.sock") : null;
                long[] samples = BareGrpcPing.run(n, warmups, socket);
                if (socket != null) {
                    Files.deleteIfExists(socket.getParent());
                }
                Arrays.sort(samples);
                System.out.println("{\"transport\": \"" + transport + "\", \"n\": " + n + ", \"p50Ns\": " + Percentiles.of(samples, 50)
                        + ", \"p99Ns\": " + Percentiles.of(samples, 99) + "}");
            });
        }
    }

    /** {@code floor cost N WARMUPS [JVM option…]}. */
    @Command(name = "cost", usageHelpWidth = 120,
            description = {"What the harness costs per round trip (a table), for an agent started with these JVM options,",
                    "and the bare floors beside it."})
    static final class Cost implements Callable<Integer> {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        boolean help;
        @Parameters(index = "0", paramLabel = "N", description = "measured round trips")
        int n;
        @Parameters(index = "1", paramLabel = "WARMUPS", description = "round trips before them")
        int warmups;
        @Parameters(index = "2..*", paramLabel = "JVM-OPTION", description = "extra options for the agent's JVM")
        List<String> jvmOptions = new ArrayList<>();

        @Override
        public Integer call() {
            return failing("floor cost", () -> HarnessCost.run(System.out, n, warmups, jvmOptions));
        }
    }

    /** {@code floor transfer BYTES N WARMUPS [JVM option…]}. */
    @Command(name = "transfer", usageHelpWidth = 120,
            description = {"What each stream-lane upload and download of BYTES costs the agent and the client (a table).",
                    "The agent starts with these JVM options; first come WARMUPS uploads and downloads of a run's 16 MiB",
                    "warm-up file (a run makes 16; 0: none)."})
    static final class Transfer implements Callable<Integer> {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        boolean help;
        @Parameters(index = "0", paramLabel = "BYTES", description = "bytes per transfer")
        long bytes;
        @Parameters(index = "1", paramLabel = "N", description = "measured transfers")
        int n;
        @Parameters(index = "2", paramLabel = "WARMUPS", description = "16 MiB warm-up transfers before them")
        int warmups;
        @Parameters(index = "3..*", paramLabel = "JVM-OPTION", description = "extra options for the agent's JVM")
        List<String> jvmOptions = new ArrayList<>();

        @Override
        public Integer call() {
            return failing("floor transfer", () -> TransferCost.run(System.out, bytes, n, warmups, jvmOptions));
        }
    }

    private interface Floor {
        void measure() throws Exception;
    }

    /** Runs the floor: 0, or 1 with the failure said in one line. */
    private static int failing(String name, Floor floor) {
        try {
            floor.measure();
            return 0;
        } catch (Exception e) {
            System.err.println(name + " failed: " + e);
            return 1;
        }
    }
}
