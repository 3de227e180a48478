package dev.spacebench.system;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;

/**
 * Once the web port is open: records it in the data directory's {@code server.json} (for
 * {@code bench}) and says in the log where the API token is and the dashboard's one-time unlock
 * link. When the app stops: removes {@code server.json}.
 */
final class ServerAnnouncer {

    private static final Logger log = LoggerFactory.getLogger(ServerAnnouncer.class);

    private final ApplicationContext context;
    private final Path dataDirectory;
    private final String serverAddress;
    private final ApiToken token;
    private final UnlockCodes codes;
    private volatile URI url;

    ServerAnnouncer(ApplicationContext context, Path dataDirectory, String serverAddress, ApiToken token, UnlockCodes codes) {
        this.context = context;
        this.dataDirectory = dataDirectory;
        this.serverAddress = serverAddress;
        this.token = token;
        this.codes = codes;
    }

    @EventListener
    public void started(WebServerInitializedEvent event) {
        WebServerApplicationContext web = event.getApplicationContext();
        if (web != context || web.getServerNamespace() != null) {
            return; // a management server on its own port, or another context
        }
        URI served = ServerFile.url(serverAddress, event.getWebServer().getPort());
        try {
            ServerFile.write(dataDirectory, served);
            url = served;
            log.info("serving at {} (recorded in {} for bench)", served, dataDirectory.resolve(ServerFile.FILE_NAME).toAbsolutePath().normalize());
        } catch (IOException e) {
            log.warn("cannot record this server in {}: {}; bench will not find it there", dataDirectory.resolve(ServerFile.FILE_NAME), e.getMessage());
        }
        log.info("API token for scripts and bench (Authorization: Bearer …): {}", token.fromFile()
                ? "in " + token.source() + " (readable by its owner only)" : "from " + token.source());
        log.info("dashboard: open {}{}?code={} once to unlock starting and cancelling runs in that browser (the link works once; "
                + "afterwards log in at {}{} with the API token)", served, UnlockFilter.PATH, codes.issue(), served, AccessProblems.LOGIN);
    }

    @EventListener
    public void stopping(ContextClosedEvent event) {
        URI served = url;
        if (event.getApplicationContext() == context && served != null) {
            ServerFile.remove(dataDirectory, served);
        }
    }
}
