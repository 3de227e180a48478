package dev.spacebench.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

class ProcessAgeTest {

    @Test
    void theStartTimeIsField22CountedFromTheLastParenthesisOfTheCommandName() {
        // A command name with a space and a ')' of its own; starttime (field 22) = 4242, and
        // field 23 (vsize) = 999 so that an off-by-one reads a different number.
        String stat = "1234 (java (x) y) S 1 1234 1234 0 -1 4194304 10 0 0 0 5 6 0 0 20 0 30 0 4242 999 100 "
                + "18446744073709551615 1 1 0 0 0 0 0 4096 17922 0 0 0 17 1 0 0 0 0 0\n";
        assertThat(ProcessAge.startTicks(stat)).isEqualTo(4242);
    }

    @Test
    void aStatLineWithoutTheFieldIsRefused() {
        assertThatThrownBy(() -> ProcessAge.startTicks("1 (init) S 0 1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcessAge.startTicks("no name here")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void uptimeIsReadToTheNanosecond() {
        assertThat(ProcessAge.uptimeNs("56789.07 110234.52\n")).isEqualTo(56_789_070_000_000L);
        assertThat(ProcessAge.uptimeNs("12.5 1.0")).isEqualTo(12_500_000_000L);
        assertThat(ProcessAge.uptimeNs("3 1")).isEqualTo(3_000_000_000L);
    }

    @Test
    void thisProcessIsAtLeastAsOldAsItsJvmSaysItIs() {
        long jvmUptimeBeforeNs = ManagementFactory.getRuntimeMXBean().getUptime() * 1_000_000L;
        long ageNs = ProcessAge.sinceStartNs().orElseThrow();
        // The process starts before its JVM records its own start time; each /proc reading is
        // truncated to 10 ms, so the age may read up to 20 ms short.
        assertThat(ageNs).isGreaterThanOrEqualTo(jvmUptimeBeforeNs - 20_000_000L);
        // And it is this process's age, not the host's uptime.
        assertThat(ageNs).isLessThan(jvmUptimeBeforeNs + 3_600_000_000_000L);
    }
}
