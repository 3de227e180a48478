package dev.spacebench;

import java.io.PrintStream;
import java.util.List;

/**
 * {@code java -jar spacebench.jar --help}: the subcommands and the web app's common options,
 * printed without starting anything (the web app would otherwise take {@code --help} as an
 * unknown property and bind its port).
 */
final class Help {

    static final String TEXT = """
            Usage: java -jar spacebench.jar [SUBCOMMAND] [OPTIONS]

            One jar, several roles:
              (none)    the web app: dashboard, REST API (/api/runs…) and the worker that measures runs
              agent     the agent that runs inside a Space (see: agent --help)
              bench     run one benchmark from the command line and write its files (see: bench --help);
                        bench publish --out DIR writes every published benchmark as a static site
              worker    a worker without web server, for a fleet on one PostgreSQL
                        (worker [--testbed NAME] [--spring.datasource.url=…]; see docs/fleet.md)
              floor     bare gRPC floors for the benchmark scripts (floor stream BYTES N WARMUPS [hash],
                        floor ping tcp|unix N WARMUPS)

            Common options of the web app (Spring Boot properties, as --NAME=VALUE):
              --server.port=PORT                     web port (default 8080)
              --server.address=ADDRESS               where it listens (default 127.0.0.1, loopback only)
              --spring.datasource.url=JDBC_URL       where runs are stored (default: H2 under ./data)
              --spacebench.space.default-kind=KIND   kind for runs that name none
              --spacebench.space.ready-timeout=DUR   how long an agent may take to be ready (default 120s)
              --spacebench.spaces.root=DIR           where Spaces keep their directories
              -h, --help                             show this help and exit

            docs/configuration.md lists every property, docs/rest.md the REST API.
            """;

    private Help() {}

    /** Only a first argument asks: after a subcommand, {@code --help} is that subcommand's. */
    static boolean asked(List<String> args) {
        return !args.isEmpty() && (args.get(0).equals("--help") || args.get(0).equals("-h"));
    }

    static void print(PrintStream out) {
        out.print(TEXT);
        out.flush();
    }
}
