package dev.spacebench.floor;

import dev.spacebench.stats.Percentiles;
import java.util.Arrays;
import java.util.List;

/**
 * {@code java -jar spacebench.jar floor stream BYTES N WARMUPS}: a bare gRPC stream of BYTES
 * each way (no Space, no files, no hashing), N times after WARMUPS, printed as one line of JSON
 * {@code {"bytes": …, "uploadP50Ns": …, "downloadP50Ns": …, "n": …}} for the floor-ratio benchmark
 * script. Exit 2 on bad usage.
 */
public final class FloorCommand {

    private FloorCommand() {}

    public static int run(List<String> args) {
        if (args.size() != 4 || !args.get(0).equals("stream")) {
            System.err.println("usage: floor stream BYTES N WARMUPS");
            return 2;
        }
        try {
            int bytes = Integer.parseInt(args.get(1));
            int n = Integer.parseInt(args.get(2));
            int warmups = Integer.parseInt(args.get(3));
            BareGrpcStream.Result result = BareGrpcStream.run(bytes, 1 << 20, n, warmups);
            long[] up = result.uploadNs().clone();
            long[] down = result.downloadNs().clone();
            Arrays.sort(up);
            Arrays.sort(down);
            System.out.println("{\"bytes\": " + bytes + ", \"n\": " + n + ", \"uploadP50Ns\": " + Percentiles.of(up, 50)
                    + ", \"downloadP50Ns\": " + Percentiles.of(down, 50) + "}");
            return 0;
        } catch (NumberFormatException e) {
            System.err.println("floor stream: BYTES, N and WARMUPS must be whole numbers: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            System.err.println("floor stream failed: " + e);
            return 1;
        }
    }
}
