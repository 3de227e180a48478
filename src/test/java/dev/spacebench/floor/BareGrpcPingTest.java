package dev.spacebench.floor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.stats.Percentiles;
import java.util.Arrays;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class BareGrpcPingTest {

    @Test
    void pingsRoundTripOnLoopback() throws Exception {
        long[] samples = BareGrpcPing.run(300, 100);

        assertThat(LongStream.of(samples).boxed().toList()).hasSize(300).allMatch(ns -> ns > 0);
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        assertThat(Percentiles.of(sorted, 50)).isPositive().isLessThan(50_000_000L);
    }

    @Test
    void aFloorPingCarriesNoGrpcDeadlineAsASpacesPingCarriesNone() throws Exception {
        java.util.List<String> calls = new java.util.concurrent.CopyOnWriteArrayList<>();
        io.grpc.ClientInterceptor recorder = new io.grpc.ClientInterceptor() {
            @Override
            public <Q, R> io.grpc.ClientCall<Q, R> interceptCall(io.grpc.MethodDescriptor<Q, R> method, io.grpc.CallOptions options,
                    io.grpc.Channel next) {
                calls.add(method.getBareMethodName() + " deadline " + (options.getDeadline() != null || io.grpc.Context.current().getDeadline() != null));
                return next.newCall(method, options);
            }
        };
        try (BareGrpcServer server = BareGrpcServer.start(new byte[0])) {
            BareGrpcPing.ping(server.blocking().withInterceptors(recorder));
            BareGrpcPing.ping(server.blocking().withInterceptors(recorder));
        }
        assertThat(calls).containsExactly("Ping deadline false", "Ping deadline false");
    }

    @Test
    void pingsRoundTripOverAUnixSocketAndRemoveIt(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path socket = dir.resolve("ping.sock");

        long[] samples = BareGrpcPing.run(50, 10, socket);

        assertThat(LongStream.of(samples).boxed().toList()).hasSize(50).allMatch(ns -> ns > 0);
        assertThat(socket).doesNotExist();
    }
}
