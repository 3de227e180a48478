package dev.spacebench.floor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.stats.Percentiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BareGrpcPingTest {

    @Test
    void pingsRoundTripOnLoopbackToAServerProcessOfItsOwnListeningOnLoopbackOnlyAndGoneAfterwards() throws Exception {
        long[] pid = {0};
        List<String> listening = new ArrayList<>();
        String[] commandLine = {""};

        long[] samples = BareGrpcPing.run(300, 100, null, server -> {
            pid[0] = server.pid();
            listening.addAll(ServerSockets.tcpListening(server.pid()));
            commandLine[0] = ServerSockets.commandLine(server.pid());
            return server.blocking();
        });

        assertThat(LongStream.of(samples).boxed().toList()).hasSize(300).allMatch(ns -> ns > 0);
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        assertThat(Percentiles.of(sorted, 50)).isPositive().isLessThan(50_000_000L);
        assertThat(pid[0]).isPositive().isNotEqualTo(ProcessHandle.current().pid());
        assertThat(commandLine[0]).as("started as the agent is, with the bare server's main class")
                .contains("-XX:+UseSerialGC", "-Xmn", "dev.spacebench.floor.BareServerMain")
                .doesNotContain("dev.spacebench.agent.AgentMain");
        assertThat(listening).as("its listening TCP sockets").isNotEmpty().allMatch(address -> address.startsWith("127.0.0.1:"));
        assertThat(ProcessHandle.of(pid[0]).filter(ProcessHandle::isAlive)).as("the server process after the floor").isEmpty();
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
    void afterItsWarmUpsTheFloorPingsInBlocksUntilABlockCompiledForLessThan5Ms() {
        // JIT ms read before the first block and after each: blocks compiled 40, 12, 5, then 4 ms.
        java.util.Iterator<Long> clock = java.util.List.of(100L, 140L, 152L, 157L, 161L, 500L).iterator();
        int[] pings = {0};
        java.util.List<Long> blocks = BareGrpcPing.settle(() -> pings[0]++, 7, clock::next);
        assertThat(blocks).containsExactly(40L, 12L, 5L, 4L);
        assertThat(pings[0]).as("pings made: 4 blocks of 7").isEqualTo(28);

        int[] more = {0};
        long[] jit = {0};
        assertThat(BareGrpcPing.settle(() -> more[0]++, 3, () -> jit[0] += 6)).as("a JIT that never settles: 16 blocks")
                .hasSize(16).containsOnly(6L);
        assertThat(more[0]).isEqualTo(48);
        assertThat(BareGrpcPing.settle(() -> more[0]++, 3, () -> -1)).as("no JIT time: no blocks").isEmpty();
    }

    @Test
    void pingsRoundTripOverAUnixSocketToAServerProcessThatOpensNoTcpPortAndRemoveIt(@TempDir Path dir) throws Exception {
        Path socket = dir.resolve("ping.sock");
        long[] pid = {0};
        List<String> listening = new ArrayList<>();
        boolean[] socketThere = {false};

        long[] samples = BareGrpcPing.run(50, 10, socket, server -> {
            pid[0] = server.pid();
            socketThere[0] = Files.exists(socket);
            listening.addAll(ServerSockets.tcpListening(server.pid()));
            return server.blocking();
        });

        assertThat(LongStream.of(samples).boxed().toList()).hasSize(50).allMatch(ns -> ns > 0);
        assertThat(pid[0]).isPositive().isNotEqualTo(ProcessHandle.current().pid());
        assertThat(socketThere[0]).as("the server had bound the socket").isTrue();
        assertThat(listening).as("a unix-socket server opens no TCP port").isEmpty();
        assertThat(ProcessHandle.of(pid[0]).filter(ProcessHandle::isAlive)).as("the server process after the floor").isEmpty();
        assertThat(socket).doesNotExist();
    }

    @Test
    void aClientThatFailsMidWayLeavesNeitherTheServerNorItsUnixSocket(@TempDir Path dir) throws Exception {
        Path socket = dir.resolve("ping.sock");
        long[] pid = {0};
        boolean[] socketThere = {false};
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        io.grpc.ClientInterceptor failAfter30 = new io.grpc.ClientInterceptor() {
            @Override
            public <Q, R> io.grpc.ClientCall<Q, R> interceptCall(io.grpc.MethodDescriptor<Q, R> method, io.grpc.CallOptions options,
                    io.grpc.Channel next) {
                if (calls.incrementAndGet() > 30) {
                    throw new IllegalStateException("the client failed on purpose");
                }
                return next.newCall(method, options);
            }
        };

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> BareGrpcPing.run(100, 10, socket, server -> {
            pid[0] = server.pid();
            socketThere[0] = Files.exists(socket);
            return server.blocking().withInterceptors(failAfter30);
        })).hasMessage("the client failed on purpose");

        assertThat(calls.get()).as("it failed mid-way: after its warm-ups, in its settle blocks or timed pings").isGreaterThan(10);
        assertThat(pid[0]).isPositive().isNotEqualTo(ProcessHandle.current().pid());
        assertThat(socketThere[0]).as("the server had bound the socket").isTrue();
        assertThat(ProcessHandle.of(pid[0]).filter(ProcessHandle::isAlive)).as("the server process after the failure").isEmpty();
        assertThat(socket).doesNotExist();
    }

    @Test
    void theFloorsChannelsAreBuiltAsTheHostsChannelToASpaceWithoutRetries() throws Exception {
        // grpc-java keeps whether a channel retries in ManagedChannelImpl.retryEnabled, behind a
        // wrapper; the host's channels to a Space turn it off (AgentChannels.lean), so must the floor's.
        io.grpc.ManagedChannel tcp = BareGrpcServer.tcpChannel(1);
        var loop = new io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup(1);
        io.grpc.ManagedChannel unix = BareGrpcServer.unixChannel(Path.of("/nonexistent.sock"), loop);
        io.grpc.ManagedChannel retrying = io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder.forAddress("127.0.0.1", 1).usePlaintext().build();
        try {
            assertThat(retryEnabled(retrying)).as("grpc-java's default, for the check's sake").isTrue();
            assertThat(retryEnabled(tcp)).isFalse();
            assertThat(retryEnabled(unix)).isFalse();
        } finally {
            tcp.shutdownNow();
            unix.shutdownNow();
            retrying.shutdownNow();
            loop.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    private static boolean retryEnabled(Object channel) throws ReflectiveOperationException {
        for (Class<?> type = channel.getClass(); type != null; type = type.getSuperclass()) {
            for (java.lang.reflect.Field field : type.getDeclaredFields()) {
                if (field.getName().equals("retryEnabled")) {
                    field.setAccessible(true);
                    return field.getBoolean(channel);
                }
                if (field.getName().equals("delegate") && io.grpc.ManagedChannel.class.isAssignableFrom(field.getType())) {
                    field.setAccessible(true);
                    return retryEnabled(field.get(channel));
                }
            }
        }
        throw new AssertionError("no retryEnabled field behind " + channel.getClass());
    }
}
