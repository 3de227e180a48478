package dev.spacebench.space.local;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Prepares the agent's class path (unpacking the Boot jar, once) and its class-data archive
 * ({@link AgentArchive}, once per class path) while the app is idle, so that no Space's ready time
 * includes either. A run that starts meanwhile waits for the archive before its floor and first
 * Space ({@code RunExecution}); a Space started without a run before it exists starts its agent
 * without it.
 */
@Component
class AgentClassPathPreparer {

    private static final Logger log = LoggerFactory.getLogger(AgentClassPathPreparer.class);

    @EventListener(ApplicationReadyEvent.class)
    public void prepareAgentClassPath() {
        Thread thread = new Thread(() -> {
            try {
                AgentLauncher.classPathEntries();
            } catch (RuntimeException e) {
                log.warn("could not prepare the agent's class path: {}", e.toString());
                return;
            }
            try {
                long start = System.nanoTime();
                boolean had = AgentArchive.find(AgentLauncher.classPathEntries()).isPresent();
                AgentArchive.ensure().filter(archive -> !had).ifPresent(archive -> log.info(
                        "agent class-data archive made in {} ms: {}", (System.nanoTime() - start) / 1_000_000, archive));
            } catch (IOException | RuntimeException e) {
                log.warn("no class-data archive for the agent (it starts without one): {}", e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "agent-classpath");
        thread.setDaemon(true);
        thread.start();
    }
}
