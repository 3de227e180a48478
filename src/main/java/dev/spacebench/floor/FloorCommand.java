package dev.spacebench.floor;

import dev.spacebench.stats.Percentiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

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
 * Exit 2 on bad usage, 1 when the floor fails.
 */
public final class FloorCommand {

    private static final String USAGE = "usage: floor stream BYTES N WARMUPS [hash] | floor ping tcp|unix N WARMUPS"
            + " | floor cost N WARMUPS [JVM option...] | floor transfer BYTES N WARMUPS [JVM option...]";

    private FloorCommand() {}

    public static int run(List<String> args) {
        if (args.size() >= 3 && args.get(0).equals("cost")) {
            try {
                HarnessCost.run(System.out, Integer.parseInt(args.get(1)), Integer.parseInt(args.get(2)), args.subList(3, args.size()));
                return 0;
            } catch (NumberFormatException e) {
                System.err.println("floor: N and WARMUPS must be whole numbers: " + e.getMessage());
                return 2;
            } catch (Exception e) {
                System.err.println("floor cost failed: " + e);
                return 1;
            }
        }
        if (args.size() >= 4 && args.get(0).equals("transfer")) {
            try {
                TransferCost.run(System.out, Long.parseLong(args.get(1)), Integer.parseInt(args.get(2)), Integer.parseInt(args.get(3)),
                        args.subList(4, args.size()));
                return 0;
            } catch (NumberFormatException e) {
                System.err.println("floor: BYTES, N and WARMUPS must be whole numbers: " + e.getMessage());
                return 2;
            } catch (Exception e) {
                System.err.println("floor transfer failed: " + e);
                return 1;
            }
        }
        boolean stream = !args.isEmpty() && args.get(0).equals("stream")
                && (args.size() == 4 || args.size() == 5 && args.get(4).equals("hash"));
        boolean ping = args.size() == 4 && args.get(0).equals("ping") && List.of("tcp", "unix").contains(args.get(1));
        if (!stream && !ping) {
            System.err.println(USAGE);
            return 2;
        }
        try {
            int n = Integer.parseInt(args.get(2));
            int warmups = Integer.parseInt(args.get(3));
            if (ping) {
                Path socket = args.get(1).equals("unix") ? Files.createTempDirectory("spacebench-floor").resolve("ping.sock") : null;
                long[] samples = BareGrpcPing.run(n, warmups, socket);
                if (socket != null) {
                    Files.deleteIfExists(socket.getParent());
                }
                Arrays.sort(samples);
                System.out.println("{\"transport\": \"" + args.get(1) + "\", \"n\": " + n + ", \"p50Ns\": " + Percentiles.of(samples, 50)
                        + ", \"p99Ns\": " + Percentiles.of(samples, 99) + "}");
                return 0;
            }
            int bytes = Integer.parseInt(args.get(1));
            boolean hash = args.size() == 5;
            BareGrpcStream.Result result = BareGrpcStream.run(bytes, 1 << 20, n, warmups, hash);
            long[] up = result.uploadNs().clone();
            long[] down = result.downloadNs().clone();
            Arrays.sort(up);
            Arrays.sort(down);
            System.out.println("{\"bytes\": " + bytes + ", \"n\": " + n + ", \"hash\": " + hash + ", \"uploadP50Ns\": " + Percentiles.of(up, 50)
                    + ", \"downloadP50Ns\": " + Percentiles.of(down, 50) + "}");
            return 0;
        } catch (NumberFormatException e) {
            System.err.println("floor: BYTES, N and WARMUPS must be whole numbers: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            System.err.println("floor " + args.get(0) + " failed: " + e);
            return 1;
        }
    }
}
