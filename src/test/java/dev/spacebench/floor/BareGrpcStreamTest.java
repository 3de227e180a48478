package dev.spacebench.floor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spacebench.stats.Throughput;
import java.util.Arrays;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class BareGrpcStreamTest {

    @Test
    void hundredMibUpAndDown() throws Exception {
        BareGrpcStream.Result result = BareGrpcStream.run(BareGrpcStream.HUNDRED_MIB, 1 << 20, 1, 0); // one each way: the suite's time

        assertThat(result.bytes()).isEqualTo(100 << 20);
        assertThat(LongStream.of(result.uploadNs()).boxed().toList()).hasSize(1).allMatch(ns -> ns > 0);
        assertThat(LongStream.of(result.downloadNs()).boxed().toList()).hasSize(1).allMatch(ns -> ns > 0);
        // Memory to memory on loopback: far above a disk, far below the memory bus.
        double upload = Throughput.mibPerSecond(result.bytes(), Arrays.stream(result.uploadNs()).min().orElseThrow());
        double download = Throughput.mibPerSecond(result.bytes(), Arrays.stream(result.downloadNs()).min().orElseThrow());
        assertThat(upload).isBetween(10.0, 100_000.0);
        assertThat(download).isBetween(10.0, 100_000.0);
    }

    @Test
    void anEmptyPayloadArrivesWhole() throws Exception {
        // run() throws if the byte counts differ, so arriving at all is the check (a partial last
        // chunk: the hashing test's 5 MiB + 7 bytes).
        assertThat(BareGrpcStream.run(0, 64 << 10, 1, 0).downloadNs()).hasSize(1);
    }

    @Test
    void refusesChunksThePlanWouldRefuse() {
        assertThatThrownBy(() -> BareGrpcStream.run(1024, 100, 1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BareGrpcStream.run(1024, 4 << 20, 1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BareGrpcStream.run(-1, 1 << 20, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void withHashingBothSidesDigestTheSameBytesWithTheServerInAProcessOfItsOwn() throws Exception {
        // run() compares the server's upload digest, and the server's and client's download digests,
        // with the payload's own SHA-256; a side that did not hash (an empty digest) fails it, and so
        // does a server process that made other bytes from the seed.
        long[] pid = {0};
        String[] commandLine = {""};
        BareGrpcStream.Result result = BareGrpcStream.run((5 << 20) + 7, 1 << 20, 2, 0, true, server -> {
            pid[0] = server.pid();
            commandLine[0] = ServerSockets.commandLine(server.pid());
        });

        assertThat(result.uploadNs()).hasSize(2).doesNotContain(0L);
        assertThat(result.downloadNs()).hasSize(2).doesNotContain(0L);
        assertThat(pid[0]).isPositive().isNotEqualTo(ProcessHandle.current().pid());
        assertThat(commandLine[0]).contains("dev.spacebench.floor.BareServerMain", "--payload " + ((5 << 20) + 7) + " ", "--hash");
        assertThat(ProcessHandle.of(pid[0]).filter(ProcessHandle::isAlive)).as("the server process after the floor").isEmpty();
    }
}
