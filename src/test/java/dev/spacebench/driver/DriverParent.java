package dev.spacebench.driver;

import dev.spacebench.measure.MeasureListener;
import dev.spacebench.measure.Progress;
import dev.spacebench.measure.Sample;
import dev.spacebench.plan.ExecPlan;
import dev.spacebench.plan.FilePlan;
import dev.spacebench.plan.FloorPlan;
import dev.spacebench.plan.Plan;
import java.nio.file.Path;
import java.util.List;

/**
 * A worker stand-in in a JVM of its own, for {@link DriverProcessTest}: starts a driver on an
 * endless no-op loop against the agent at {@code args[0]} (token in {@code SPACEBENCH_TEST_TOKEN}),
 * prints "driver PID" once it runs and "samples" at its first samples, and waits to be killed.
 * With {@code args[2]} {@code hold}: one warm-up, then it never answers the driver's announcement of
 * its measured loop (prints "before measured"), so the driver waits for its go, writing nothing.
 */
public final class DriverParent {

    public static void main(String[] args) throws Exception {
        boolean hold = args.length > 2 && args[2].equals("hold");
        Plan plan = new Plan(new ExecPlan(List.of("noop"), 1_000_000, hold ? 1 : 0, 0), new FilePlan(List.of(), 0, Long.MAX_VALUE, 65536),
                new FloorPlan(false, 1, 0));
        DriverJob job = new DriverJob(args[0], System.getenv("SPACEBENCH_TEST_TOKEN"), null, 65536, Path.of(args[1]), plan);
        boolean[] told = new boolean[1];
        DriverProcess.run(job, new MeasureListener() {
            @Override
            public void sample(Sample sample) {
                if (!told[0] && !hold) {
                    told[0] = true;
                    System.out.println("samples");
                    System.out.flush();
                }
            }

            @Override
            public void progress(Progress progress) {
            }

            @Override
            public void beforeMeasured(String metric) {
                if (hold) {
                    System.out.println("before measured");
                    System.out.flush();
                    try {
                        Thread.sleep(Long.MAX_VALUE);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }

            @Override
            public boolean cancelRequested() {
                return false;
            }
        }, pid -> {
            System.out.println("driver " + pid);
            System.out.flush();
        });
    }
}
