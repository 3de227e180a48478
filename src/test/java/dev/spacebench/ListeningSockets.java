package dev.spacebench;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The TCP sockets a process listens on, read from Linux's {@code /proc}: its descriptors
 * ({@code /proc/PID/fd/* -> socket:[INODE]}) matched against {@code /proc/net/tcp} and
 * {@code /proc/net/tcp6} in state LISTEN, as {@code ss -ltnp} does.
 */
public final class ListeningSockets {

    /** A listening socket: its local address and port. */
    public record Listener(InetAddress address, int port) implements Comparable<Listener> {
        @Override
        public int compareTo(Listener other) {
            return toString().compareTo(other.toString());
        }

        @Override
        public String toString() {
            return address.getHostAddress() + ":" + port;
        }
    }

    private ListeningSockets() {
    }

    public static Set<Listener> of(long pid) throws IOException {
        Map<String, Listener> listening = new HashMap<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path path = Path.of(table);
            if (!Files.exists(path)) {
                continue;
            }
            List<String> lines = Files.readAllLines(path);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                if (f[3].equals("0A")) { // TCP_LISTEN
                    String[] local = f[1].split(":");
                    listening.put(f[9], new Listener(address(local[0]), Integer.parseInt(local[1], 16)));
                }
            }
        }
        Set<Listener> owned = new TreeSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds.toList()) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (IOException closedMeanwhile) {
                    continue;
                }
                if (target.startsWith("socket:[")) {
                    Listener listener = listening.get(target.substring("socket:[".length(), target.length() - 1));
                    if (listener != null) {
                        owned.add(listener);
                    }
                }
            }
        }
        return owned;
    }

    /** /proc/net/tcp's hex address: 32-bit words in host (little-endian) order. */
    private static InetAddress address(String hex) throws IOException {
        byte[] bytes = new byte[hex.length() / 2];
        for (int word = 0; word < bytes.length / 4; word++) {
            for (int i = 0; i < 4; i++) {
                int at = (word * 4 + (3 - i)) * 2;
                bytes[word * 4 + i] = (byte) Integer.parseInt(hex.substring(at, at + 2), 16);
            }
        }
        return InetAddress.getByAddress(bytes);
    }

}
