package dev.spacebench.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spacebench.plan.FileSize;
import dev.spacebench.request.FieldError;
import dev.spacebench.plan.PlanPreset;
import dev.spacebench.request.InvalidRequestException;
import java.util.List;
import org.junit.jupiter.api.Test;

class FileSizesTextTest {

    @Test
    void readsUnitsSeparatorsAndSpaces() {
        assertThat(FileSizesText.parse("1MiB:20, 4 MiB : 3\n512KiB:2,1000:1,2GiB:1,7b:4")).containsExactly(
                new FileSize(1L << 20, 20), new FileSize(4L << 20, 3), new FileSize(512L << 10, 2),
                new FileSize(1000L, 1), new FileSize(2L << 30, 1), new FileSize(7L, 4));
        assertThat(FileSizesText.parse("  ")).isEmpty();
        assertThat(FileSizesText.parse(null)).isEmpty();
    }

    @Test
    void writesWhatItReads() {
        for (PlanPreset preset : PlanPreset.values()) {
            List<FileSize> sizes = preset.plan().files().sizes();
            assertThat(FileSizesText.parse(FileSizesText.format(sizes))).isEqualTo(sizes);
        }
        assertThat(FileSizesText.format(PlanPreset.QUICK.plan().files().sizes())).isEqualTo("1MiB:5, 16MiB:3");
    }

    @Test
    void namesEveryUnreadableEntry() {
        assertThatThrownBy(() -> FileSizesText.parse("1MiB:2, 4MB:3, lots, 99999999999999999999:1"))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.errors()).containsExactly(
                        new FieldError("fileSizes", "entry 2 '4MB:3': unit must be B, KiB, MiB or GiB, was 'MB'"),
                        new FieldError("fileSizes", "entry 3 'lots' must look like 4MiB:20 (size:iterations)"),
                        new FieldError("fileSizes", "entry 4 '99999999999999999999:1' has a number too large to hold")));
    }

    @Test
    void requestErrorsLandBesideTheirInputs() {
        assertThat(FormErrors.byField(List.of(
                new FieldError("plan.exec.n", "must be from 1 to 1000000, was 0"),
                new FieldError("plan.files.sizes[1].bytes", "must be from 1 to 4294967296, was 0"),
                new FieldError("plan.files.sizes[1].n", "must be from 1 to 1000000, was 0"),
                new FieldError("plan.exec.metrics[0]", "must be one of [noop, true, sh_c], was 'ls'"),
                new FieldError("space.memoryMiB", "must be from 16 to 16777216, was 1"),
                new FieldError("plan", "has nothing to measure"),
                new FieldError("plan.files.chunkBytes", "must be from 1024 to 3145728, was 1"))))
                .containsEntry("execN", "must be from 1 to 1000000, was 0")
                .containsEntry("fileSizes", "entry 2 size must be from 1 to 4294967296, was 0; entry 2 iterations must be from 1 to 1000000, was 0")
                .containsEntry("metrics", "must be one of [noop, true, sh_c], was 'ls'")
                .containsEntry("memoryMiB", "must be from 16 to 16777216, was 1")
                .containsEntry("form", "plan has nothing to measure; plan.files.chunkBytes must be from 1024 to 3145728, was 1");
    }
}
