package dev.spacebench.publish;

import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.metric.PlanMetrics;
import dev.spacebench.plan.Plan;
import dev.spacebench.space.SpaceKinds;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The page's Method section: what was measured, how, and what was excluded. The prose is
 * {@code templates/text/prose/method.txt}; this class passes it the run's facts.
 */
final class Method {

    private Method() {}

    /**
     * What method.txt reads, grouped by the paragraph that reads it. Null fields leave their
     * sentence out.
     *
     * @param warmups warm-up samples of the run, all metrics
     * @param failures failed measured iterations of the run, all metrics
     */
    record Facts(SpaceFacts space, FloorFacts floor, ExecFacts exec, FileFacts files, int warmups, int failures) {
    }

    /**
     * @param network how the host reached the agent, as the provider described it
     * @param launchMechanism how the agent's JVM starts processes, as the agent reported it
     */
    record SpaceFacts(String kind, String article, boolean attach, int spaceCount, String network, String launchMechanism) {
    }

    /** @param n floor samples per floor metric; null (as {@code warmups}) when the plan measured no floor */
    record FloorFacts(Integer n, Integer warmups) {
    }

    /** @param metrics e.g. "no-op, true, sh -c true"; null when the plan has no exec loop */
    record ExecFacts(String metrics, int agentWarmupCalls, int warmups, int n) {
    }

    /** @param sizes e.g. "1 MiB ×20, 64 MiB ×5"; null when the plan has no file loop */
    record FileFacts(String sizes, int warmups, String bulkThreshold, String chunk) {
    }

    static List<String> describe(Plan plan, dev.spacebench.space.SpaceFacts space, String kind, int warmups, int failures) {
        return TextTemplates.paragraphs("prose/method", Map.of("m", facts(plan, space, kind, warmups, failures)));
    }

    static Facts facts(Plan plan, dev.spacebench.space.SpaceFacts space, String kind, int warmups, int failures) {
        boolean floor = plan.floor() != null && plan.floor().enabled();
        String execMetrics = plan.exec().metrics().isEmpty() ? null : PlanMetrics.exec(plan).stream()
                .map(ExecRoundTrip::label)
                .collect(Collectors.joining(", "));
        String fileSizes = plan.files().sizes().isEmpty() ? null : plan.files().sizes().stream()
                .map(s -> Format.bytes(s.bytes()) + " ×" + s.n()).collect(Collectors.joining(", "));
        Integer agentWarmup = plan.exec().agentWarmupCalls();
        return new Facts(
                new SpaceFacts(kind, Headline.article(kind), SpaceKinds.reachesRunningAgent(kind), plan.spaceCount(),
                        space == null ? null : space.network(), space == null ? null : space.launchMechanism()),
                new FloorFacts(floor ? plan.floor().n() : null, floor ? plan.floor().warmups() : null),
                new ExecFacts(execMetrics, agentWarmup == null ? 0 : agentWarmup, plan.exec().warmups(), plan.exec().n()),
                new FileFacts(fileSizes, plan.files().warmups(), Format.bytes(plan.files().bulkThresholdBytes()),
                        Format.bytes(plan.files().chunkBytes())),
                warmups, failures);
    }
}
