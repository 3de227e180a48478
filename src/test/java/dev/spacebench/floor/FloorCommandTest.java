package dev.spacebench.floor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code spacebench floor ping} as its own JVM, as src/bench/floor-ratios.sh runs it. */
class FloorCommandTest {

    @Test
    void theFloorsServerProcessFollowsItsClientWhenTheClientIsKilled() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // A million pings: far longer than the test; it is killed while it pings.
        Process client = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "dev.spacebench.Main",
                "floor", "ping", "tcp", "1000000", "0")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            ProcessHandle server = awaitServer(client.toHandle(), 120);
            assertThat(server.pid()).isNotEqualTo(client.pid());
            assertThat(ServerSockets.tcpListening(server.pid())).isNotEmpty().allMatch(address -> address.startsWith("127.0.0.1:"));

            client.destroyForcibly(); // SIGKILL: no finally block, no shutdown hook runs in the client
            assertThat(client.waitFor(30, TimeUnit.SECONDS)).isTrue();

            assertThat(server.onExit().completeOnTimeout(server, 30, TimeUnit.SECONDS).get().isAlive())
                    .as("the server process 30 s after its client was killed").isFalse();
        } finally {
            client.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            client.destroyForcibly();
        }
    }

    /** The client's child running the bare server, once it is listening. */
    private static ProcessHandle awaitServer(ProcessHandle client, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            assertThat(client.isAlive()).as("the floor's client is still running").isTrue();
            Optional<ProcessHandle> server = client.children()
                    .filter(child -> ServerSockets.commandLine(child.pid()).contains(BareServerMain.class.getName()))
                    .findFirst();
            if (server.isPresent() && !ServerSockets.tcpListening(server.get().pid()).isEmpty()) {
                return server.get();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no bare server process under the floor's client within " + seconds + " s; its children: "
                + client.children().map(child -> ServerSockets.commandLine(child.pid())).toList());
    }
}
