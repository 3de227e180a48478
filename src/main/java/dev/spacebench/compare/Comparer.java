package dev.spacebench.compare;

import dev.spacebench.baseline.BaselineFigures;
import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.publish.Format;
import dev.spacebench.stats.MannWhitney;
import dev.spacebench.stats.PairedRatio;
import dev.spacebench.stats.RatioOfMedians;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Compares two sides. Where both have raw samples, each metric gets a two-sided Mann–Whitney U
 * test and a bootstrap 95% CI of the ratio of medians (b / a, fixed seed so the page is
 * reproducible); a difference is called significant when p &lt; 0.05 and that CI excludes 1.
 * Where either side has summary figures only, the metric says "not testable: summary only".
 */
public final class Comparer {

    public static final double ALPHA = 0.05;
    /** Fixed, so that the same two runs always give the same bootstrap interval. */
    public static final long BOOTSTRAP_SEED = 20261130L;
    /** Facts that, when they differ, make a comparison not like for like. */
    /** Environment rows that name one Space's own process, files or socket, so always differ. */
    private static final Set<String> PER_SPACE = Set.of("Space pid", "Space directory", "Space network", "Space agent pid",
            "Space qemu pid", "Space container", "Space shared directory", "Space cleanup", "Space bulk lane", "Worker");
    private static final List<String> DECISIVE = List.of("CPU", "Space kind", "OS", "Memory", "Space isolation", "Virtualization");

    private Comparer() {}

    public static Comparison compare(Side a, Side b) {
        List<Comparison.Row> rows = new ArrayList<>();
        for (String metric : a.figures().keySet()) {
            BaselineFigures fa = a.figures().get(metric);
            BaselineFigures fb = b.figures().get(metric);
            if (fb == null || fa.p50Ns() == null || fb.p50Ns() == null || fa.p50Ns() == 0) {
                continue;
            }
            rows.add(row(metric, fa, fb, a, b));
        }
        List<Comparison.EnvironmentRow> environment = new ArrayList<>();
        Set<String> labels = new LinkedHashSet<>(a.environment().keySet());
        labels.addAll(b.environment().keySet());
        List<String> warnings = new ArrayList<>();
        for (String label : labels) {
            String va = a.environment().getOrDefault(label, "—");
            String vb = b.environment().getOrDefault(label, "—");
            // A Space's pid, directory, port and the like differ between any two runs: shown, not flagged.
            boolean differs = !Objects.equals(va, vb) && !PER_SPACE.contains(label);
            environment.add(new Comparison.EnvironmentRow(label, va, vb, differs));
            if (differs && DECISIVE.contains(label)) {
                warnings.add(label + " differs: " + va + " against " + vb);
            }
        }
        if (!warnings.isEmpty()) {
            warnings.add(0, "Not like for like: these figures come from different machines or kinds of Space, so a ratio "
                    + "says how the two setups differ, not how the Spaces alone do.");
        }
        String noPairing = a.interleavedPlan() == null || b.interleavedPlan() == null
                ? "no paired interval: both sides must be interleaved runs (a sequential run, or a baseline without its run, has no blocks)"
                : !a.interleavedPlan().equals(b.interleavedPlan())
                ? "no paired interval: the two runs' plans differ, so their blocks are not the same places in the same schedule"
                : null;
        List<Comparison.PairedRow> paired = new ArrayList<>();
        if (noPairing == null) {
            for (Comparison.Row row : rows) {
                java.util.SortedMap<Integer, Long> ba = a.blocks().get(row.metric());
                java.util.SortedMap<Integer, Long> bb = b.blocks().get(row.metric());
                if (ba == null || bb == null) {
                    continue;
                }
                PairedRatio.byBlock(bb, ba).ifPresent(p -> paired.add(new Comparison.PairedRow(row.metric(), p.ratio(),
                        p.bounded() ? p.lower() : null, p.bounded() ? p.upper() : null, p.blocks(), Format.significant(p.ratio()) + "×",
                        p.bounded() ? Format.significant(p.lower()) + "× – " + Format.significant(p.upper()) + "×" : null)));
            }
        }
        return new Comparison(a.title(), a.link(), b.title(), b.link(), rows, environment, warnings.isEmpty(), warnings,
                List.copyOf(paired), noPairing);
    }

    private static Comparison.Row row(String metric, BaselineFigures fa, BaselineFigures fb, Side a, Side b) {
        double ratio = (double) fb.p50Ns() / fa.p50Ns();
        String label = label(metric);
        long[] sa = a.hasSamples() ? a.samples().apply(metric) : new long[0];
        long[] sb = b.hasSamples() ? b.samples().apply(metric) : new long[0];
        if (sa.length < 2 || sb.length < 2) {
            String why = a.hasSamples() && b.hasSamples() ? "not testable: fewer than 2 samples on a side"
                    : "not testable: summary only";
            return new Comparison.Row(metric, label, fa.p50Ns(), Format.duration(fa.p50Ns()), fb.p50Ns(),
                    Format.duration(fb.p50Ns()), ratio, Format.significant(ratio) + "×", why, null, null, null, null, why);
        }
        MannWhitney test = MannWhitney.of(sa, sb);
        RatioOfMedians ci = RatioOfMedians.of(sb, sa, BOOTSTRAP_SEED);
        boolean significant = test.pValue() < ALPHA && (ci.lower() > 1 || ci.upper() < 1);
        String verdict = significant
                ? (ratio > 1 ? "b is slower" : "b is faster") + " (significant)"
                : "no significant difference";
        String described = "Mann-Whitney U (two-sided) p = " + Format.significant(test.pValue())
                + "; bootstrap 95% CI of the ratio of medians " + Format.significant(ci.lower()) + "–"
                + Format.significant(ci.upper()) + " (" + ci.resamples() + " resamples)";
        return new Comparison.Row(metric, label, fa.p50Ns(), Format.duration(fa.p50Ns()), fb.p50Ns(),
                Format.duration(fb.p50Ns()), ratio, Format.significant(ratio) + "×", described, test.pValue(),
                ci.lower(), ci.upper(), significant, verdict);
    }

    static String label(String metric) {
        return ExecRoundTrip.fromId(metric).map(ExecRoundTrip::label).orElse(metric);
    }
}
