package dev.spacebench.space;

import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;

/**
 * Every provider by kind, and every live Space this app made. Deletes all live Spaces when the
 * app stops, so none outlives it.
 */
@Service
public class Spaces {

    private static final Logger log = LoggerFactory.getLogger(Spaces.class);

    private final Map<String, SpaceProvider> providers = new LinkedHashMap<>();
    private final Set<Space> live = ConcurrentHashMap.newKeySet();

    public Spaces(List<SpaceProvider> providers) {
        providers.forEach(p -> this.providers.put(p.kind(), p));
    }

    /** Every known kind with its availability here, in registration order. */
    public Map<String, SpaceProvider.Availability> kinds() {
        Map<String, SpaceProvider.Availability> kinds = new LinkedHashMap<>();
        providers.forEach((kind, provider) -> kinds.put(kind, provider.availability()));
        return kinds;
    }

    /** Problems its provider can see in a spec before creating anything (field → message); empty for an unknown kind. */
    public Map<String, String> check(SpaceSpec spec) {
        SpaceProvider provider = providers.get(spec.kind());
        return provider == null ? Map.of() : provider.check(spec);
    }

    /** @throws SpaceException if the kind is unknown or unavailable here, or creation fails */
    public Space create(SpaceSpec spec, Duration readyTimeout) throws SpaceException {
        SpaceProvider provider = providers.get(spec.kind());
        if (provider == null) {
            throw new SpaceException("unknown kind '" + spec.kind() + "'; known: " + providers.keySet());
        }
        SpaceProvider.Availability availability = provider.availability();
        if (!availability.available()) {
            throw new SpaceException("kind '" + spec.kind() + "' is not available here: " + availability.reason());
        }
        Space space = provider.create(spec, readyTimeout);
        live.add(space);
        return space;
    }

    public void delete(Space space) {
        try {
            providers.get(space.kind()).delete(space);
        } finally {
            live.remove(space);
        }
    }

    /** How many Spaces this app has live right now. */
    public int liveCount() {
        return live.size();
    }

    /**
     * Prepares the agent's class path (unpacking the Boot jar, once) while the app is idle, so
     * the first Space's ready time does not include it.
     */
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

    @PreDestroy
    void deleteAll() {
        for (Space space : new ArrayList<>(live)) {
            log.info("app stopping: deleting Space {}", space.id());
            delete(space);
        }
    }
}
