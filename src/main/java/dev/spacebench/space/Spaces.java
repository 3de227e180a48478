package dev.spacebench.space;

import dev.spacebench.channel.AgentChannels;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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
    private final KindChecks checks;
    private final Duration checkWait;

    /**
     * @param settings its {@code check-wait}: how long a request for a kind still
     *     being checked waits for the check's result before it is queued anyway
     */
    public Spaces(List<SpaceProvider> providers, KindChecks checks,
                  SpaceSettings settings) {
        providers.forEach(p -> this.providers.put(p.kind(), p));
        this.checks = checks;
        this.checkWait = settings.checkWait();
    }

    /** Every known kind with what its last check found, now, without waiting; in registration order. */
    public Map<String, KindStatus> kinds() {
        Map<String, KindStatus> byKind = new LinkedHashMap<>();
        checks.statuses().forEach(status -> byKind.put(status.kind(), status));
        Map<String, KindStatus> kinds = new LinkedHashMap<>();
        providers.keySet().forEach(kind -> kinds.put(kind, byKind.get(kind)));
        return kinds;
    }

    /** The known kinds whose provider creates Spaces (every one but those that reach a running agent), in registration order. */
    public List<String> creatingKinds() {
        return providers.values().stream().filter(SpaceProvider::createsSpaces).map(SpaceProvider::kind).toList();
    }

    /** The known kinds that reach an agent already running instead of creating a Space, in registration order. */
    public List<String> attachingKinds() {
        return providers.values().stream().filter(p -> !p.createsSpaces()).map(SpaceProvider::kind).toList();
    }

    /**
     * A kind's status, waiting up to {@code spacebench.space.check-wait} for a check in progress.
     *
     * @return null for an unknown kind; a status that is still {@link KindStatus#checking()} when
     *     the check takes longer
     */
    public KindStatus awaitKind(String kind) {
        return checks.await(kind, checkWait);
    }

    /**
     * The kind to use when none is configured or asked for: {@code sandbox} when its check passed,
     * else {@code process}.
     *
     * @param wait how long to wait for sandbox's check if it is still running
     * @return null while sandbox is still being checked after {@code wait}
     */
    public String defaultKind(Duration wait) {
        KindStatus sandbox = checks.await(SpaceKinds.SANDBOX, wait);
        if (sandbox == null) {
            return SpaceKinds.PROCESS;
        }
        return sandbox.checking() ? null : sandbox.passed() ? SpaceKinds.SANDBOX : SpaceKinds.PROCESS;
    }

    /** {@link #defaultKind(Duration)} waiting up to {@code spacebench.space.check-wait}, then {@code process} if still unknown. */
    public String defaultKindForRequest() {
        String kind = defaultKind(checkWait);
        return kind == null ? SpaceKinds.PROCESS : kind;
    }

    /** Per kind with a choice of OCI runtime ({@code space.runtime}): each runtime with what its check found. */
    public Map<String, Map<String, SpaceProvider.Availability>> runtimes() {
        Map<String, Map<String, SpaceProvider.Availability>> all = new LinkedHashMap<>();
        providers.forEach((kind, provider) -> {
            Map<String, SpaceProvider.Availability> runtimes = provider.runtimes();
            if (!runtimes.isEmpty()) {
                all.put(kind, runtimes);
            }
        });
        return all;
    }

    /** Checks every kind again, in the background (see {@link KindChecks}). */
    public void checkKindsAgain() {
        checks.checkAll();
    }

    /** Problems its provider can see in a spec before creating anything (field → message); empty for an unknown kind. */
    public Map<String, String> check(SpaceSpec spec) {
        SpaceProvider provider = providers.get(spec.kind());
        if (provider == null) {
            return Map.of();
        }
        // Before the provider's own check: attach probes its target, which a unix: target cannot be without epoll.
        Optional<String> noUnix = AgentChannels.unixSocketsUnavailable();
        if (spec.target() != null && spec.target().startsWith("unix:") && noUnix.isPresent()) {
            return Map.of("space.target", "unix: targets cannot be used here: " + noUnix.get() + "; fix: use a loopback "
                    + "HOST:PORT target, or start the app where Netty's native epoll transport loads");
        }
        Map<String, String> problems = new LinkedHashMap<>(provider.check(spec));
        provider.channelsUnsupported(spec.served()).ifPresent(why -> problems.put("channels", why + servedElsewhere(provider, spec.served())));
        return problems;
    }

    /**
     * Per kind, each channel of {@link SpaceChannels#KNOWN}: {@code "available"} where the kind can serve it here,
     * else {@code "not available: "} and why ({@link SpaceProvider#channelsUnsupported}), e.g. the sandbox's {@code ssh}.
     */
    public Map<String, Map<String, String>> channels() {
        Map<String, Map<String, String>> all = new LinkedHashMap<>();
        providers.forEach((kind, provider) -> {
            Map<String, String> each = new LinkedHashMap<>();
            for (String channel : SpaceChannels.KNOWN) {
                each.put(channel, provider.channelsUnsupported(Set.of(channel)).map(why -> "not available: " + why).orElse("available"));
            }
            all.put(kind, each);
        });
        return all;
    }

    /** Whether {@code kind} can serve {@code channel} here ({@link SpaceProvider#channelsUnsupported}); false for an unknown kind. */
    public boolean serves(String kind, String channel) {
        SpaceProvider provider = providers.get(kind);
        return provider != null && provider.channelsUnsupported(Set.of(channel)).isEmpty();
    }

    /** Why a Space of {@code spec} cannot move files ({@link SpaceProvider#filesUnsupported}); empty for an unknown kind. */
    public Optional<String> filesUnsupported(SpaceSpec spec) {
        SpaceProvider provider = providers.get(spec.kind());
        return provider == null ? Optional.empty() : provider.filesUnsupported(spec);
    }

    /**
     * For a 400 on {@code channels}: which kinds serve each channel asked for that {@code asked} cannot,
     * as each kind's provider says, e.g. {@code "; container-exec: kinds [container]"}.
     */
    private String servedElsewhere(SpaceProvider asked, Set<String> channels) {
        StringBuilder text = new StringBuilder();
        for (String channel : channels.stream().filter(c -> !c.equals(SpaceChannels.AGENT))
                .filter(c -> asked.channelsUnsupported(Set.of(SpaceChannels.AGENT, c)).isPresent())
                .sorted().toList()) {
            List<String> kinds = providers.values().stream()
                    .filter(p -> p.channelsUnsupported(Set.of(SpaceChannels.AGENT, channel)).isEmpty())
                    .map(SpaceProvider::kind).sorted().toList();
            text.append("; ").append(channel).append(": ").append(kinds.isEmpty() ? "no kind here serves it" : "kinds " + kinds);
        }
        return text.toString();
    }

    /**
     * Waits for kind checks in progress to end (so that none runs while this Space is measured),
     * then creates the Space.
     *
     * @throws SpaceException if the kind is unknown, its check failed here (the message says why
     *     and the fix), or creation fails
     */
    public Space create(SpaceSpec spec, Duration readyTimeout) throws SpaceException {
        return create(spec, readyTimeout, spec.served());
    }

    /** As {@link #create(SpaceSpec, Duration)}, the Space serving {@code channels} ({@link SpaceChannels}) besides its agent. */
    public Space create(SpaceSpec spec, Duration readyTimeout, Set<String> channels) throws SpaceException {
        SpaceProvider provider = providers.get(spec.kind());
        if (provider == null) {
            throw new SpaceException("unknown kind '" + spec.kind() + "'; known: " + providers.keySet());
        }
        checks.awaitIdle();
        KindStatus status = checks.await(spec.kind(), Duration.ZERO);
        if (status.failed()) {
            throw new SpaceException("kind '" + spec.kind() + "' is not available here: " + status.reasonAndFix());
        }
        Space space = channels.equals(Set.of(SpaceChannels.AGENT)) ? provider.create(spec, readyTimeout)
                : provider.create(null, spec, readyTimeout, channels);
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

    /**
     * Whether this spec's agent is reached over a unix socket (its kind's way, or an attach target
     * {@code unix:/path}), so that the floor's bare ping takes the same transport.
     */
    public boolean agentOnUnixSocket(SpaceSpec spec) {
        SpaceProvider provider = providers.get(spec.kind());
        return provider != null && provider.agentOnUnixSocket() || spec.target() != null && spec.target().startsWith("unix:");
    }

    /** How many Spaces this app has live right now. */
    public int liveCount() {
        return live.size();
    }

    @PreDestroy
    void deleteAll() {
        for (Space space : new ArrayList<>(live)) {
            log.info("app stopping: deleting Space {}", space.id());
            delete(space);
        }
    }
}
