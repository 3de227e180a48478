package dev.spacebench.agent;

import java.nio.file.Path;
import java.util.List;

/**
 * The agent's command line.
 *
 * <pre>
 * agent --work-dir DIR --bulk-dir DIR [--listen 127.0.0.1:0 | tcp:HOST:PORT | unix:/PATH]
 *       [--token-file FILE] [--exit-on-stdin-eof]
 * </pre>
 *
 * The token comes from {@code --token-file} or, failing that, the environment variable
 * {@code SPACEBENCH_AGENT_TOKEN}. TCP listens on 127.0.0.1 unless a host is given.
 */
public record AgentOptions(Listen listen, Path workDir, Path bulkDir, Path tokenFile, boolean exitOnStdinEof) {

    /** What {@code agent --help} prints. */
    public static final String USAGE = """
            Usage: spacebench agent --work-dir DIR --bulk-dir DIR [--listen ADDRESS] [--token-file FILE]
                                    [--exit-on-stdin-eof]

            The agent that runs inside a Space: a gRPC server (no Spring, no web server) that runs
            commands and moves files for the app. When it serves it prints one line to stdout:
              SPACEBENCH-AGENT READY tcp:127.0.0.1:PORT   (or unix:/PATH)

              --work-dir DIR        where commands run and files go; client paths stay inside it
              --bulk-dir DIR        the bulk lane: a directory the host shares with the Space
              --listen ADDRESS      127.0.0.1:0 (default: a free loopback port), HOST:PORT,
                                    tcp:HOST:PORT or unix:/PATH
              --token-file FILE     the token every call must carry ("authorization: Bearer ...");
                                    without it the token comes from SPACEBENCH_AGENT_TOKEN
              --exit-on-stdin-eof   stop when stdin closes (the host that started it is gone)
              -h, --help            show this help and exit

            Exit codes: 0 after a normal stop or --help, 2 bad options, 1 anything else.
            """;

    /** True when the arguments ask for help; checked before any other parsing. */
    public static boolean helpAsked(List<String> args) {
        return args.contains("--help") || args.contains("-h");
    }

    /** Where the agent listens: a TCP host and port (0 = any free port) or a unix socket path. */
    public record Listen(String host, int port, Path unixSocket) {
        boolean isUnix() {
            return unixSocket != null;
        }
    }

    /** @throws IllegalArgumentException naming the option that is missing or malformed */
    public static AgentOptions parse(List<String> args) {
        Listen listen = new Listen("127.0.0.1", 0, null);
        Path work = null;
        Path bulk = null;
        Path token = null;
        boolean exitOnEof = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "--listen" -> listen = parseListen(value(args, ++i, arg));
                case "--work-dir" -> work = Path.of(value(args, ++i, arg));
                case "--bulk-dir" -> bulk = Path.of(value(args, ++i, arg));
                case "--token-file" -> token = Path.of(value(args, ++i, arg));
                case "--exit-on-stdin-eof" -> exitOnEof = true;
                default -> throw new IllegalArgumentException("unknown option '" + arg
                        + "'; known: --listen, --work-dir, --bulk-dir, --token-file, --exit-on-stdin-eof, --help");
            }
        }
        if (work == null) {
            throw new IllegalArgumentException("--work-dir is required");
        }
        if (bulk == null) {
            throw new IllegalArgumentException("--bulk-dir is required");
        }
        return new AgentOptions(listen, work, bulk, token, exitOnEof);
    }

    static Listen parseListen(String value) {
        if (value.startsWith("unix:")) {
            String path = value.substring("unix:".length());
            if (path.isEmpty()) {
                throw new IllegalArgumentException("--listen unix: needs a socket path, e.g. unix:/tmp/agent.sock");
            }
            return new Listen(null, 0, Path.of(path));
        }
        String hostPort = value.startsWith("tcp:") ? value.substring("tcp:".length()) : value;
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("--listen must be HOST:PORT, tcp:HOST:PORT or unix:PATH, was '" + value + "'");
        }
        String host = hostPort.substring(0, colon);
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--listen port must be a number from 0 to 65535, was '" + value + "'");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--listen port must be from 0 to 65535, was " + port);
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return new Listen(host, port, null);
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args.get(i);
    }
}
