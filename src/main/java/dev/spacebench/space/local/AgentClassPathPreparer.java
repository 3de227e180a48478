package dev.spacebench.space.local;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Prepares the agent's class path (unpacking the Boot jar, once) while the app is idle, so the
 * first Space's ready time does not include it.
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
            }
        }, "agent-classpath");
        thread.setDaemon(true);
        thread.start();
    }
}
