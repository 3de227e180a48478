package dev.spacebench.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PercentDoneTest {

    @Test
    void oneDecimalOfDoneOverTotal() {
        assertThat(RunView.percentDone(RunStatus.RUNNING, 452, 1000)).isEqualTo(45.2);
        assertThat(RunView.percentDone(RunStatus.RUNNING, 1, 3)).isEqualTo(33.3);
        assertThat(RunView.percentDone(RunStatus.RUNNING, 2, 3)).isEqualTo(66.7);
        assertThat(RunView.percentDone(RunStatus.CANCELLED, 1, 2000)).isEqualTo(0.1);
        assertThat(RunView.percentDone(RunStatus.FAILED, 1000, 1000)).isEqualTo(100.0);
    }

    @Test
    void noTotalIsZeroAndSucceededIsAHundred() {
        assertThat(RunView.percentDone(RunStatus.QUEUED, 0, 0)).isEqualTo(0.0);
        assertThat(RunView.percentDone(RunStatus.SUCCEEDED, 7, 10)).isEqualTo(100.0);
        assertThat(RunView.percentDone(RunStatus.SUCCEEDED, 0, 0)).isEqualTo(100.0);
    }
}
