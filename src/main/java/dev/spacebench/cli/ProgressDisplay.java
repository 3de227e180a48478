package dev.spacebench.cli;

import dev.spacebench.live.LiveRun;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Objects;

/**
 * Shows a run's progress: on a terminal one line redrawn in place with a bar; otherwise (a pipe,
 * a log, CI) one plain line each time the run moves to another metric or phase, so logs stay short.
 */
final class ProgressDisplay {

    private static final int BAR_WIDTH = 30;

    private final PrintStream out;
    private final boolean terminal;
    private String lastStage;
    private int lastWidth;

    /** @param terminal true to redraw one line in place ({@code System.console() != null}) */
    ProgressDisplay(PrintStream out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    void show(LiveRun run) {
        if (terminal) {
            String line = bar(run.percent()) + String.format(Locale.ROOT, " %6s  ", run.percentText()) + run.step();
            // Pads over what a longer previous line left behind.
            out.print("\r" + line + " ".repeat(Math.max(0, lastWidth - line.length())));
            out.flush();
            lastWidth = line.length();
            if (run.finished()) {
                out.println();
            }
            return;
        }
        String stage = run.status() + "|" + run.metric() + "|" + run.phase();
        if (!Objects.equals(stage, lastStage)) {
            lastStage = stage;
            String what = run.finished() || run.metric() == null ? run.step() : run.metric() + " " + run.phase();
            out.println(String.format(Locale.ROOT, "%6s  %s", run.percentText(), what));
        }
    }

    private static String bar(double percent) {
        int filled = (int) Math.round(BAR_WIDTH * Math.min(100, Math.max(0, percent)) / 100);
        return "[" + "#".repeat(filled) + ".".repeat(BAR_WIDTH - filled) + "]";
    }
}
