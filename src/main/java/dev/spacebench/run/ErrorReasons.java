package dev.spacebench.run;

/**
 * A run's failure reason, in plain words, for a {@link Throwable} the run's own steps do not expect
 * (an {@link Error} above all: a native library missing, memory or stack exhausted): what happened,
 * the error's own message, and where the details are.
 */
final class ErrorReasons {

    private ErrorReasons() {}

    /** @return one line for the run's failure reason; never null */
    static String of(Throwable e) {
        String said = e.getMessage() == null || e.getMessage().isBlank() ? "" : ": " + e.getMessage().strip();
        if (e instanceof OutOfMemoryError) {
            return "the app ran out of memory during this run" + said
                    + "; fix: give the app a larger heap (-Xmx) or run a plan with fewer samples";
        }
        if (e instanceof StackOverflowError) {
            return "the app overflowed a thread's stack during this run (a bug in Spacebench; the app's log has the stack trace)";
        }
        if (e instanceof LinkageError) {
            return "a library this run needs could not be loaded" + said + " (the app's log has the details)";
        }
        if (e instanceof Error) {
            return "the app met an unexpected error during this run" + said + " (the app's log has the stack trace)";
        }
        return "the run stopped on an unexpected problem" + said + " (the app's log has the stack trace)";
    }
}
