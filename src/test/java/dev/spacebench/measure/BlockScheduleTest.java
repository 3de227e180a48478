package dev.spacebench.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spacebench.measure.BlockSchedule.Series;
import dev.spacebench.measure.BlockSchedule.Slot;
import dev.spacebench.plan.ExecPlan;
import dev.spacebench.plan.FilePlan;
import dev.spacebench.plan.FloorPlan;
import dev.spacebench.plan.Plan;
import dev.spacebench.plan.Plans;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BlockScheduleTest {

    private static final List<Series> SERIES = List.of(new Series("exec.noop", 300, 5), new Series("exec.true", 300, 5),
            new Series("exec.sh_c", 300, 5), new Series("floor.spawn.true", 95, 2), new Series("floor.grpc.noop", 30, 0));

    @Test
    void theSameSeedGivesTheSameOrderAndAnotherSeedAnother() {
        BlockSchedule first = BlockSchedule.of(SERIES, 30, 42);

        assertThat(BlockSchedule.of(SERIES, 30, 42)).isEqualTo(first);
        // 30 rounds of 5! orders: two seeds agreeing on all of them by chance is (1/120)^30.
        assertThat(order(BlockSchedule.of(SERIES, 30, 43))).isNotEqualTo(order(first));
    }

    @Test
    void theOrderIsTheJdksSpecifiedShuffleOfEachRound() {
        // Recomputed here from Random's and Collections.shuffle's documented algorithms, not by the class:
        // for i from size-1 down to 1, swap element i with element nextInt(i + 1).
        java.util.Random random = new java.util.Random(7);
        List<String> expected = new java.util.ArrayList<>();
        String[] round = SERIES.stream().map(Series::id).toArray(String[]::new);
        for (int b = 0; b < 3; b++) {
            for (int i = round.length - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                String t = round[i];
                round[i] = round[j];
                round[j] = t;
            }
            expected.addAll(List.of(round));
        }

        assertThat(order(BlockSchedule.of(SERIES, 3, 7))).isEqualTo(expected);
    }

    @Test
    void everySeriesGetsTheSameNumberOfBlocksOnePerRoundCoveringEachIterationOnce() {
        BlockSchedule schedule = BlockSchedule.of(SERIES, 30, 1);

        Map<String, List<Slot>> bySeries = schedule.slots().stream().collect(Collectors.groupingBy(Slot::series));
        assertThat(bySeries).hasSize(5);
        for (Series s : SERIES) {
            List<Slot> slots = bySeries.get(s.id());
            assertThat(slots).extracting(Slot::block).containsExactlyElementsOf(IntStream.rangeClosed(1, 30).boxed().toList());
            List<Integer> iterations = slots.stream()
                    .flatMap(slot -> IntStream.range(slot.firstIteration(), slot.firstIteration() + slot.count()).boxed()).toList();
            assertThat(iterations).containsExactlyElementsOf(IntStream.rangeClosed(1, s.n()).boxed().toList());
            assertThat(slots).extracting(Slot::count).allSatisfy(c -> assertThat(c).isBetween(s.n() / 30, s.n() / 30 + 1));
            // Warm-ups all before the first block.
            assertThat(slots.get(0).warmups()).isEqualTo(s.warmups());
            assertThat(slots.subList(1, 30)).extracting(Slot::warmups).containsOnly(0);
        }
        for (int round = 0; round < 30; round++) {
            List<Slot> inRound = schedule.slots().subList(5 * round, 5 * round + 5);
            assertThat(inRound).extracting(Slot::block).containsOnly(round + 1);
        }
    }

    @Test
    void aPlansSeriesAreItsExecMetricsAndFloorLoopsInExecNOverBlockSizeBlocks() {
        Plan plan = Plans.withDefaults(new Plan(new ExecPlan(List.of("noop", "sh_c"), 95, 3), new FilePlan(List.of(), null, null, null),
                new FloorPlan(true, 40, 1), null, null, null, 10, 5L));

        BlockSchedule schedule = BlockSchedule.of(plan);

        assertThat(schedule.blocks()).isEqualTo(10);
        assertThat(BlockSchedule.series(plan)).extracting(Series::id).containsExactly("exec.noop", "exec.sh_c", "floor.spawn.true",
                "floor.spawn.sh_c", "floor.hyperfine.true", "floor.grpc.noop", "floor.hyperfine.sh_c");
        assertThat(schedule.slots()).hasSize(70);
        assertThat(plan.order()).isEqualTo(Plan.INTERLEAVED);
    }

    @Test
    void refusesFewerIterationsThanBlocks() {
        assertThatThrownBy(() -> BlockSchedule.of(List.of(new Series("exec.noop", 5, 0)), 6, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exec.noop has 5 iterations");
        assertThatThrownBy(() -> BlockSchedule.of(SERIES, 0, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    private static List<String> order(BlockSchedule schedule) {
        return schedule.slots().stream().map(Slot::series).toList();
    }
}
