package dev.spacebench.space;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RetryTest {

    @Test
    void triesAgainUntilAnAttemptWorks() throws InterruptedException {
        AtomicInteger tries = new AtomicInteger();
        Optional<Exception> failed = Retry.untilDeadline(Duration.ofSeconds(30), Duration.ofMillis(1), () -> {
            if (tries.incrementAndGet() < 3) {
                throw new IOException("not yet " + tries.get());
            }
        });
        assertThat(failed).isEmpty();
        assertThat(tries.get()).isEqualTo(3);
    }

    @Test
    void triesOnceWhenTheDeadlineHasPassedAndGivesTheLastFailure() throws InterruptedException {
        AtomicInteger tries = new AtomicInteger();
        Optional<Exception> failed = Retry.untilDeadline(Duration.ZERO, Duration.ofMillis(1), () -> {
            throw new IOException("refused " + tries.incrementAndGet());
        });
        assertThat(tries.get()).isEqualTo(1);
        assertThat(failed).get().extracting(Exception::getMessage).isEqualTo("refused 1");
    }

    @Test
    void keepsTryingUntilTheDeadlineThenGivesTheLastFailure() throws InterruptedException {
        AtomicInteger tries = new AtomicInteger();
        Optional<Exception> failed = Retry.untilDeadline(Duration.ofMillis(500), Duration.ofMillis(1), () -> {
            throw new IOException("refused " + tries.incrementAndGet());
        });
        // Tried again while time was left, and the exception given is the last try's, not the first's.
        assertThat(tries.get()).isGreaterThan(1);
        assertThat(failed).get().extracting(Exception::getMessage).isEqualTo("refused " + tries.get());
    }

    @Test
    void anInterruptDuringAPauseEndsTheWaitAndStaysSet() {
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> Retry.untilDeadline(Duration.ofSeconds(30), Duration.ofMillis(10), () -> {
                throw new IOException("refused");
            })).isInstanceOf(InterruptedException.class);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}
