package dev.spacebench.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SampleColumnsTest {

    @Test
    void replaysEverySampleAsTakenUnderItsNewIdWithTheSweepsColumns() {
        SampleColumns columns = new SampleColumns(8, 3);
        List<Sample> expected = new ArrayList<>();
        Random random = new Random(11);
        String[] metrics = {"exec.noop", "exec.true", "file.upload.1MiB"};
        for (int i = 0; i < 10_000; i++) {
            String metric = metrics[(i / 1000) % 3];
            boolean ok = random.nextInt(50) != 0;
            Long agent = random.nextBoolean() ? null : (long) random.nextInt(1_000_000) - 10;
            Sample s = new Sample(metric, i + 1, i % 7 == 0 ? Phase.WARMUP : Phase.MEASURED, random.nextLong(1L << 40),
                    random.nextInt(3) == 0 ? 1L << 20 : 0, ok, ok ? null : "failed at " + i, agent);
            columns.add("sweep.8." + metric, s);
            expected.add(new Sample("sweep.8." + metric, s.iteration(), s.phase(), s.ns(), s.bytes(), s.ok(), s.error(), s.agentNs(),
                    8, 3));
        }
        List<Sample> replayed = new ArrayList<>();
        columns.replay(replayed::add);
        assertThat(columns.size()).isEqualTo(10_000);
        assertThat(replayed).containsExactlyElementsOf(expected);
    }
}
