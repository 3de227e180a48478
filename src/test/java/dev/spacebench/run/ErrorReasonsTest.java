package dev.spacebench.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import org.junit.jupiter.api.Test;

/** Real errors from the JVM, each turned into a reason in plain words (no class names). */
class ErrorReasonsTest {

    @Test
    void eachErrorSaysWhatHappenedInPlainWords() {
        Throwable link = catchThrowable(() -> System.loadLibrary("spacebench-no-such-native-library"));
        assertThat(ErrorReasons.of(link)).startsWith("a library this run needs could not be loaded: no spacebench-no-such-native-library");

        Throwable memory = catchThrowable(() -> {
            long[] huge = new long[Integer.MAX_VALUE];
            huge[0] = 1;
        });
        assertThat(memory).isInstanceOf(OutOfMemoryError.class);
        assertThat(ErrorReasons.of(memory)).startsWith("the app ran out of memory during this run: ").contains("-Xmx");

        Throwable stack = catchThrowable(() -> deeper(0));
        assertThat(stack).isInstanceOf(StackOverflowError.class);
        assertThat(ErrorReasons.of(stack)).startsWith("the app overflowed a thread's stack during this run");

        for (Throwable e : new Throwable[] {link, memory, stack}) {
            assertThat(ErrorReasons.of(e)).as(e.toString()).doesNotContain("java.lang.").doesNotContain("Error:");
        }
    }

    private static int deeper(int depth) {
        return deeper(depth + 1) + 1;
    }
}
