package dev.spacebench.fleet;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The fleet test's workers as separate hosts: each in its own network namespace, joined to this
 * host by a veth pair (10.213.X.4i+1 here, .4i+2 there, a /30 each), with a firewall inside that
 * lets it reach nothing but PostgreSQL's port on its own link (and its own loopback, where its
 * Spaces' agents listen). PostgreSQL is a server of the test's own ({@code initdb} and
 * {@code pg_ctl} as the {@code postgres} user into a temp dir), listening on 127.0.0.1 and the
 * host's veth addresses only, password login; the system cluster is left as it is.
 *
 * <p>Needs root (namespaces, veth, nft), {@code ip}, {@code nft}, {@code runuser}, Debian's
 * PostgreSQL binaries and a {@code postgres} user; {@link #create} says which is missing instead.
 * Names carry this JVM's pid, so a later run removes the namespaces of one that died.
 */
final class WorkerNetwork implements AutoCloseable {

    static final String USER = "spacebench";
    static final String PASSWORD = "spacebench-fleet";
    private static final String PREFIX = "sbf";

    private final long pid = ProcessHandle.current().pid();
    private final int subnet = (int) (pid % 250);
    private final int workers;
    private final Path pgDir;
    private final List<String> namespaces = new ArrayList<>();
    private int port;
    private boolean started;

    private WorkerNetwork(int workers, Path pgDir) {
        this.workers = workers;
        this.pgDir = pgDir;
    }

    /** What this machine lacks for it, or null when it has all of it. */
    static String missing() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "not root (network namespaces and veth pairs need it)";
        }
        for (String tool : List.of("ip", "nft", "runuser")) {
            if (Stream.of(System.getenv().getOrDefault("PATH", "").split(":")).noneMatch(d -> Files.isExecutable(Path.of(d, tool)))) {
                return tool + " is not on PATH";
            }
        }
        if (pgBin() == null) {
            return "no PostgreSQL server binaries under /usr/lib/postgresql";
        }
        return null;
    }

    /**
     * Makes the namespaces and starts the server.
     *
     * @throws IOException when a step fails (its command and output in the message); what was made is removed
     */
    static WorkerNetwork create(int workers) throws IOException, InterruptedException {
        removeLeftovers();
        WorkerNetwork network = new WorkerNetwork(workers, Files.createTempDirectory("spacebench-fleet-pg-"));
        try {
            network.makeLinks();
            network.startPostgres();
            return network;
        } catch (IOException | InterruptedException | RuntimeException e) {
            network.close();
            throw e;
        }
    }

    private String namespace(int worker) {
        return PREFIX + pid + "n" + worker;
    }

    /** This host's end of worker {@code i}'s link, where PostgreSQL listens for it. */
    String hostAddress(int worker) {
        return "10.213." + subnet + "." + (4 * worker + 1);
    }

    private String workerAddress(int worker) {
        return "10.213." + subnet + "." + (4 * worker + 2);
    }

    int port() {
        return port;
    }

    /** The server's own {@code postgres} database, from this host. */
    String adminUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    /** {@code url} (a database on this server, as seen from this host) as worker {@code i} reaches it. */
    String urlFor(int worker, String url) {
        return url.replace("//127.0.0.1:" + port + "/", "//" + hostAddress(worker) + ":" + port + "/");
    }

    /** What worker {@code i}'s command runs through: {@code ip netns exec NAME}, which execs it (same pid). */
    List<String> wrapper(int worker) {
        return List.of("ip", "netns", "exec", namespace(worker));
    }

    /** Whether a TCP connection from worker {@code i}'s namespace to host:port gets through within 3 s. */
    boolean reaches(int worker, String host, int port) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("ip", "netns", "exec", namespace(worker), "timeout", "3", "bash", "-c",
                "exec 3<>/dev/tcp/" + host + "/" + port).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    private void makeLinks() throws IOException, InterruptedException {
        for (int i = 0; i < workers; i++) {
            String ns = namespace(i);
            String host = PREFIX + pid + "h" + i;
            run("ip", "netns", "add", ns);
            namespaces.add(ns);
            run("ip", "link", "add", host, "type", "veth", "peer", "name", "eth0", "netns", ns);
            run("ip", "addr", "add", hostAddress(i) + "/30", "dev", host);
            run("ip", "link", "set", host, "up");
            run("ip", "-n", ns, "addr", "add", workerAddress(i) + "/30", "dev", "eth0");
            run("ip", "-n", ns, "link", "set", "eth0", "up");
            run("ip", "-n", ns, "link", "set", "lo", "up");
        }
    }

    private void startPostgres() throws IOException, InterruptedException {
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path bin = pgBin();
        Files.writeString(pgDir.resolve("password"), PASSWORD + "\n");
        run("chown", "-R", "postgres:postgres", pgDir.toString());
        Path data = pgDir.resolve("data");
        run("runuser", "-u", "postgres", "--", bin.resolve("initdb").toString(), "-D", data.toString(), "-U", USER,
                "--pwfile=" + pgDir.resolve("password"), "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8",
                "--no-sync");
        // The workers' links: password login, from those addresses only.
        StringBuilder hba = new StringBuilder();
        for (int i = 0; i < workers; i++) {
            hba.append("host all ").append(USER).append(' ').append(workerAddress(i)).append("/32 scram-sha-256\n");
        }
        Files.writeString(data.resolve("pg_hba.conf"), hba, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
        StringBuilder listen = new StringBuilder("127.0.0.1");
        for (int i = 0; i < workers; i++) {
            listen.append(',').append(hostAddress(i));
        }
        // For the workers' firewall: the port now known, each namespace may reach it on its own link only.
        for (int i = 0; i < workers; i++) {
            firewall(i);
        }
        run("runuser", "-u", "postgres", "--", bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l",
                pgDir.resolve("server.log").toString(), "-w", "-t", "120", "-o",
                "-c listen_addresses='" + listen + "' -p " + port + " -c unix_socket_directories='" + pgDir + "'", "start");
        started = true;
    }

    private void firewall(int worker) throws IOException, InterruptedException {
        String rules = """
                table inet spacebench {
                  chain out {
                    type filter hook output priority 0; policy drop;
                    oif "lo" accept
                    ip daddr %s tcp dport %d accept
                  }
                }
                """.formatted(hostAddress(worker), port);
        Path file = pgDir.resolve("nft-" + worker);
        Files.writeString(file, rules);
        run("ip", "netns", "exec", namespace(worker), "nft", "-f", file.toString());
    }

    /** The log of the test's PostgreSQL server, for a failure's message. */
    String serverLog() {
        try {
            return Files.readString(pgDir.resolve("server.log"));
        } catch (IOException e) {
            return "(no server log: " + e + ")";
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (started) {
            runQuietly("runuser", "-u", "postgres", "--", pgBin().resolve("pg_ctl").toString(), "-D",
                    pgDir.resolve("data").toString(), "-m", "fast", "-w", "stop");
        }
        for (String ns : namespaces) {
            // Deleting the namespace deletes its end of the veth pair, and with it this host's end.
            runQuietly("ip", "netns", "del", ns);
        }
        try (Stream<Path> files = Files.walk(pgDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** Namespaces of earlier test JVMs that died before their cleanup (their pid is gone). */
    private static void removeLeftovers() throws IOException, InterruptedException {
        Process list = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
        String names = new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        list.waitFor();
        for (String line : names.lines().toList()) {
            String name = line.split(" ")[0];
            java.util.regex.Matcher m = java.util.regex.Pattern.compile(PREFIX + "(\\d+)n\\d+").matcher(name);
            if (m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty()) {
                runQuietly("ip", "netns", "del", name);
            }
        }
    }

    private static Path pgBin() {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb")))
                    .max(Comparator.comparing(b -> Integer.parseInt(b.getParent().getFileName().toString().replaceAll("\\D", "0"))))
                    .orElse(null);
        } catch (IOException | NumberFormatException e) {
            return null;
        }
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(150, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + output.strip());
        }
    }

    private static void runQuietly(String... command) throws InterruptedException {
        try {
            run(command);
        } catch (IOException e) {
            System.err.println("fleet: cleanup step failed: " + e.getMessage());
        }
    }
}
