package dev.spacebench.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.BitSet;
import org.junit.jupiter.api.Test;

/** {@code spacebench.driver.cpus}: taskset's CPU lists of this host's CPUs, anything else refused naming the property. */
class DriverSettingsTest {

    private static BitSet of(int... cpus) {
        BitSet set = new BitSet();
        for (int cpu : cpus) {
            set.set(cpu);
        }
        return set;
    }

    @Test
    void listsAndRangesOfTheHostsCpusAreRead() {
        assertThat(DriverSettings.parse("1", 2)).isEqualTo(of(1));
        assertThat(DriverSettings.parse("0,2-3", 4)).isEqualTo(of(0, 2, 3));
        assertThat(DriverSettings.parse(" 0 - 1 ", 2)).isEqualTo(of(0, 1));
    }

    @Test
    void blankIsNotPinned() {
        assertThat(new DriverSettings(null).cpus()).isNull();
        assertThat(new DriverSettings("  ").cpus()).isNull();
    }

    @Test
    void cpusTheHostDoesNotHaveOrNoListAtAllAreRefusedNamingThePropertyAndTheRange() {
        for (String bad : new String[] {"2", "-1", "1-0", "a", "0,,1", "0-1-2", "0;1"}) {
            assertThatThrownBy(() -> DriverSettings.parse(bad, 2)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("spacebench.driver.cpus must be a list of this host's CPUs, 0 to 1, such as 1 or 0,2-3 (blank: not pinned); was '"
                            + bad + "'");
        }
    }
}
