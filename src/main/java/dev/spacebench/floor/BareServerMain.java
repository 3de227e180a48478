package dev.spacebench.floor;

import dev.spacebench.protocol.AgentProtocol;
import dev.spacebench.protocol.NettyJfrEvents;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The bare floors' server process: a {@link BareGrpcServer} alone in a JVM of its own, started by
 * {@link BareServerProcess} as a process Space's agent is started (the agent's JVM command line).
 *
 * <pre>BareServerMain tcp|unix:/PATH [--payload BYTES SEED] [--hash]</pre>
 *
 * {@code tcp} listens on 127.0.0.1 (a free port), never on another address. The payload ReadFile
 * streams is {@code BYTES} bytes of {@code new SplittableRandom(SEED).nextBytes} (the client makes
 * the same bytes to check them); none without {@code --payload}. When it serves it prints the
 * agent's readiness line ({@link AgentProtocol#READY_PREFIX} then {@code tcp:127.0.0.1:PORT} or
 * {@code unix:/PATH}) to stdout; it stops when its stdin closes (the process that started it is
 * gone or done, even by SIGKILL), and removes its unix socket then. Exit codes: 0 after that stop,
 * 2 for bad arguments, 1 when it cannot serve.
 */
public final class BareServerMain {

    private BareServerMain() {}

    public static void main(String[] args) {
        NettyJfrEvents.turnOff(); // as the agent
        List<String> list = List.of(args);
        Path socket;
        byte[] payload;
        boolean hash;
        try {
            socket = socket(list);
            payload = payload(list);
            hash = list.contains("--hash");
        } catch (IllegalArgumentException e) {
            System.err.println("bare server: " + e.getMessage());
            System.exit(2);
            return;
        }
        try {
            BareGrpcServer server = socket == null ? BareGrpcServer.serve(payload, hash) : BareGrpcServer.serveUnix(payload, hash, socket);
            System.out.println(AgentProtocol.READY_PREFIX + server.address());
            System.out.flush();
            try (InputStream in = System.in) {
                while (in.read() != -1) {
                    // discard: only the end matters
                }
            } catch (IOException ignored) {
                // a broken stdin means the same as its end
            }
            server.close();
            if (socket != null) {
                Files.deleteIfExists(socket);
            }
            System.exit(0);
        } catch (Exception e) {
            System.err.println("bare server: " + e);
            System.exit(1);
        }
    }

    /** null for {@code tcp}; the path of {@code unix:/PATH}. */
    static Path socket(List<String> args) {
        if (args.isEmpty()) {
            throw new IllegalArgumentException("usage: tcp|unix:/PATH [--payload BYTES SEED] [--hash]");
        }
        String listen = args.get(0);
        if (listen.equals("tcp")) {
            return null;
        }
        if (listen.startsWith("unix:/")) {
            return Path.of(listen.substring("unix:".length()));
        }
        throw new IllegalArgumentException("the first argument must be tcp or unix:/PATH, was '" + listen + "'");
    }

    /** The payload {@code --payload BYTES SEED} asks for; empty without it. */
    static byte[] payload(List<String> args) {
        int at = args.indexOf("--payload");
        if (at < 0) {
            return new byte[0];
        }
        if (at + 2 >= args.size()) {
            throw new IllegalArgumentException("--payload needs BYTES and SEED");
        }
        int bytes;
        long seed;
        try {
            bytes = Integer.parseInt(args.get(at + 1));
            seed = Long.parseLong(args.get(at + 2));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--payload BYTES SEED must be whole numbers: " + e.getMessage());
        }
        if (bytes < 0) {
            throw new IllegalArgumentException("--payload BYTES must be 0 or more, was " + bytes);
        }
        return bytes(bytes, seed);
    }

    /** The payload both sides make from a seed: random, so that nothing on the way could compress it. */
    static byte[] bytes(int bytes, long seed) {
        byte[] payload = new byte[bytes];
        new SplittableRandom(seed).nextBytes(payload);
        return payload;
    }
}
