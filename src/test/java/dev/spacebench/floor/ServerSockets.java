package dev.spacebench.floor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** What a process listens on and how it was started, read from /proc (Linux), independently of the code under test. */
final class ServerSockets {

    private ServerSockets() {}

    /**
     * The local addresses ({@code a.b.c.d:port} for IPv4, {@code [hex]:port} for IPv6) of the TCP
     * sockets process {@code pid} holds open in state LISTEN.
     */
    static List<String> tcpListening(long pid) {
        Path proc = Path.of("/proc", Long.toString(pid));
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(proc.resolve("fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String link = Files.readSymbolicLink(fd).toString();
                    if (link.startsWith("socket:[")) {
                        inodes.add(link.substring("socket:[".length(), link.length() - 1));
                    }
                } catch (IOException gone) {
                    // closed meanwhile
                }
            }
            List<String> addresses = new ArrayList<>();
            for (String table : List.of("tcp", "tcp6")) {
                Path file = proc.resolve("net").resolve(table);
                if (!Files.exists(file)) {
                    continue;
                }
                List<String> lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
                for (String line : lines.subList(1, lines.size())) {
                    String[] f = line.trim().split("\\s+");
                    // sl local rem st tx:rx tr:when retrnsmt uid timeout inode
                    if (f[3].equals("0A") && inodes.contains(f[9])) {
                        addresses.add(address(f[1]));
                    }
                }
            }
            return addresses;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + proc + ": " + e.getMessage(), e);
        }
    }

    /**
     * /proc's {@code HEX:PORT} as {@code a.b.c.d:port} (IPv4, and IPv4 mapped into IPv6: both in
     * 32-bit little-endian words there) or {@code [HEX]:port} for any other IPv6 address.
     */
    static String address(String procAddress) {
        String[] parts = procAddress.split(":");
        int port = Integer.parseInt(parts[1], 16);
        String hex = parts[0];
        if (hex.length() == 32 && hex.startsWith("0000000000000000FFFF0000")) {
            hex = hex.substring(24);
        }
        if (hex.length() != 8) {
            return "[" + hex + "]:" + port;
        }
        long ip = Long.parseLong(hex, 16);
        return (ip & 0xff) + "." + (ip >> 8 & 0xff) + "." + (ip >> 16 & 0xff) + "." + (ip >> 24 & 0xff) + ":" + port;
    }

    /** The process's command line, its arguments joined by spaces. */
    static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException e) {
            throw new IllegalStateException("no process " + pid, e);
        }
    }
}
