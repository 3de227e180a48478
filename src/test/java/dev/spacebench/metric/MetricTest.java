package dev.spacebench.metric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spacebench.plan.ExecMetric;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MetricTest {

    /** Every case, by the id stored in results and exports (written out by hand, not built by the model). */
    private static final List<String> IDS = List.of(
            "exec.noop", "exec.true", "exec.sh_c",
            "file.upload.1000B", "file.download.1000B", "file.upload.4KiB", "file.download.1536KiB",
            "file.upload.1MiB", "file.download.1MiB", "file.upload.512MiB", "file.download.2GiB",
            "space.ready", "space.delete",
            "floor.timer", "floor.spawn.true", "floor.spawn.sh_c", "floor.hyperfine.true", "floor.grpc.noop");

    @Test
    void everyIdParsesBackToItself() {
        for (String id : IDS) {
            assertThat(Metric.parse(id)).as(id).isPresent();
            assertThat(Metric.parse(id).get().id()).isEqualTo(id);
            assertThat(Metric.of(id).id()).isEqualTo(id);
        }
    }

    @Test
    void aSweepsIdsParseToTheirLevelAndMetric() {
        assertThat(Metric.of("sweep.4.exec.sh_c")).isEqualTo(new Sweep(ExecRoundTrip.SH_C, 4));
        assertThat(Metric.of("sweep.16.space.ready")).isEqualTo(new Sweep(SpaceLifecycle.READY, 16));
        assertThat(Metric.of("sweep.2.file.download.1MiB")).isEqualTo(new Sweep(Transfer.download(1_048_576), 2));
        assertThat(Metric.of("sweep.64.exec.true").id()).isEqualTo("sweep.64.exec.true");
        assertThat(Metric.of("sweep.4.exec.sh_c").label()).isEqualTo("sh -c true, 4 Spaces busy");
        assertThat(Kind.ofId("sweep.8.file.upload.1MiB")).isEqualTo(Kind.UPLOAD);
        assertThat(Kind.ofId("sweep.8.exec.noop")).isEqualTo(Kind.EXEC);
        // No sweep of the floor, of a sweep, or at level 0.
        for (String id : List.of("sweep.4.floor.timer", "sweep.4.sweep.2.exec.true", "sweep.0.exec.true", "sweep.exec.true", "sweep.4.exec.bogus")) {
            assertThat(Metric.parse(id)).as(id).isEmpty();
        }
        // Page order: after the floor, by level, then as the metric measured.
        List<Metric> ordered = new ArrayList<>(List.of(Metric.of("sweep.2.space.ready"), Metric.of("sweep.1.space.delete"),
                Metric.of("floor.timer"), Metric.of("sweep.1.exec.sh_c"), Metric.of("sweep.1.space.ready")));
        ordered.sort(Metric.PAGE_ORDER);
        assertThat(ordered).extracting(Metric::id).containsExactly("floor.timer", "sweep.1.space.ready", "sweep.1.exec.sh_c",
                "sweep.1.space.delete", "sweep.2.space.ready");
    }

    @Test
    void idsParseToTheirCase() {
        assertThat(Metric.of("exec.noop")).isSameAs(ExecRoundTrip.NOOP);
        assertThat(Metric.of("exec.true")).isSameAs(ExecRoundTrip.TRUE);
        assertThat(Metric.of("exec.sh_c")).isSameAs(ExecRoundTrip.SH_C);
        assertThat(Metric.of("file.upload.1MiB")).isEqualTo(new Transfer(Transfer.Direction.UPLOAD, 1_048_576));
        assertThat(Metric.of("file.download.1536KiB")).isEqualTo(new Transfer(Transfer.Direction.DOWNLOAD, 1_572_864));
        assertThat(Metric.of("file.upload.1000B")).isEqualTo(Transfer.upload(1000));
        assertThat(Metric.of("file.download.2GiB")).isEqualTo(Transfer.download(2_147_483_648L));
        assertThat(Metric.of("space.ready")).isSameAs(SpaceLifecycle.READY);
        assertThat(Metric.of("space.delete")).isSameAs(SpaceLifecycle.DELETE);
        assertThat(Metric.of("floor.timer")).isSameAs(FloorMetric.TIMER);
        assertThat(Metric.of("floor.spawn.true")).isSameAs(FloorMetric.SPAWN_TRUE);
        assertThat(Metric.of("floor.spawn.sh_c")).isSameAs(FloorMetric.SPAWN_SH_C);
        assertThat(Metric.of("floor.hyperfine.true")).isSameAs(FloorMetric.HYPERFINE_TRUE);
        assertThat(Metric.of("floor.grpc.noop")).isSameAs(FloorMetric.GRPC_NOOP);
    }

    @Test
    void casesWriteTheStoredIds() {
        assertThat(Transfer.upload(16L << 20).id()).isEqualTo("file.upload.16MiB");
        assertThat(Transfer.download(4096).id()).isEqualTo("file.download.4KiB");
        assertThat(Transfer.upload(1023).id()).isEqualTo("file.upload.1023B");
        assertThat(ExecRoundTrip.of(ExecMetric.SH_C).id()).isEqualTo("exec.sh_c");
        assertThat(ExecRoundTrip.fromWireName("true")).contains(ExecRoundTrip.TRUE);
        assertThat(ExecRoundTrip.fromWireName("false")).isEmpty();
        assertThat(ExecRoundTrip.ids()).containsExactly("exec.noop", "exec.true", "exec.sh_c");
        assertThat(ExecRoundTrip.fromId("exec.noop")).contains(ExecRoundTrip.NOOP);
        assertThat(ExecRoundTrip.fromId("floor.grpc.noop")).isEmpty();
    }

    @Test
    void idsNoCaseWritesAreRefused() {
        // 1024B is written 1KiB, so it is not an id this model writes; likewise 2048KiB (2MiB).
        for (String id : new String[] {"", "exec", "exec.", "exec.false", "exec.NOOP", "file.upload.", "file.upload.1024B",
                "file.download.2048KiB", "file.upload.1.5MiB", "file.upload.-1B", "file.upload.1TiB", "file.sideways.1MiB",
                "file.upload.99999999999999999999GiB", "file.upload.9999999999999GiB", "space.ready ", "space.gone",
                "floor.", "floor.grpc.ping", "floor.spawn", "Exec.noop"}) {
            assertThat(Metric.parse(id)).as(id).isEmpty();
        }
        assertThat(Metric.parse(null)).isEmpty();
        assertThatThrownBy(() -> Metric.of("exec.false")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exec.false");
        assertThatThrownBy(() -> Transfer.upload(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void labels() {
        assertThat(ExecRoundTrip.NOOP.label()).isEqualTo("no-op RPC");
        assertThat(ExecRoundTrip.TRUE.label()).isEqualTo("true");
        assertThat(ExecRoundTrip.SH_C.label()).isEqualTo("sh -c true");
        assertThat(ExecRoundTrip.NOOP.shortLabel()).isEqualTo("no-op");
        assertThat(ExecRoundTrip.SH_C.shortLabel()).isEqualTo("sh -c true");
        assertThat(ExecRoundTrip.NOOP.listLabel()).isEqualTo("noop");
        assertThat(ExecRoundTrip.TRUE.listLabel()).isEqualTo("true");
        assertThat(ExecRoundTrip.SH_C.listLabel()).isEqualTo("sh -c true");
        assertThat(Metric.of("file.upload.1MiB").label()).isEqualTo("upload 1 MiB");
        assertThat(Metric.of("file.download.1536KiB").label()).isEqualTo("download 1.50 MiB");
        assertThat(Metric.of("file.upload.4KiB").label()).isEqualTo("upload 4 KiB");
        assertThat(Metric.of("file.upload.1000B").label()).isEqualTo("upload 1000 B");
        assertThat(Metric.of("file.download.2GiB").label()).isEqualTo("download 2 GiB");
        // 1.2 GiB = 1288490188.8 bytes is not whole; 1258291200 = 1200 MiB = 1.171875 GiB → three digits.
        assertThat(Transfer.sizeText(1_258_291_200L)).isEqualTo("1.17 GiB");
        assertThat(SpaceLifecycle.READY.label()).isEqualTo("Space ready");
        assertThat(SpaceLifecycle.DELETE.label()).isEqualTo("Space delete");
        assertThat(SpaceLifecycle.READY.description()).isEqualTo("ready: create → first successful Ping");
        assertThat(SpaceLifecycle.DELETE.description()).isEqualTo("delete: kill and remove everything");
        assertThat(FloorMetric.TIMER.label()).isEqualTo("floor timer");
        assertThat(FloorMetric.SPAWN_TRUE.label()).isEqualTo("floor spawn true");
        assertThat(FloorMetric.SPAWN_SH_C.label()).isEqualTo("floor spawn sh_c");
        assertThat(FloorMetric.HYPERFINE_TRUE.label()).isEqualTo("floor hyperfine true");
        assertThat(FloorMetric.GRPC_NOOP.label()).isEqualTo("floor grpc noop");
        assertThat(FloorMetric.HYPERFINE_TRUE.description()).isEqualTo("hyperfine -N true on the host");
        assertThat(FloorMetric.GRPC_NOOP.comparedAs()).isEqualTo("a bare gRPC ping");
        assertThat(FloorMetric.TIMER.comparedAs()).isNull();
    }

    @Test
    void eachExecRoundTripIsReadAgainstItsFloors() {
        assertThat(Metric.of("exec.true").floors().stream().map(Metric::id))
                .containsExactly("floor.spawn.true", "floor.hyperfine.true");
        assertThat(Metric.of("exec.sh_c").floors().stream().map(Metric::id)).containsExactly("floor.spawn.sh_c", "floor.hyperfine.sh_c");
        assertThat(Metric.of("exec.noop").floors().stream().map(Metric::id)).containsExactly("floor.grpc.noop");
        for (String id : List.of("file.upload.1MiB", "space.ready", "space.delete", "floor.timer", "floor.grpc.noop")) {
            assertThat(Metric.of(id).floors()).as(id).isEmpty();
        }
    }

    @Test
    void kindsAndUnits() {
        assertThat(Metric.of("exec.sh_c").kind().wireName()).isEqualTo("exec");
        assertThat(Metric.of("file.upload.1MiB").kind().wireName()).isEqualTo("upload");
        assertThat(Metric.of("file.download.1MiB").kind().wireName()).isEqualTo("download");
        assertThat(Metric.of("space.delete").kind().wireName()).isEqualTo("space");
        assertThat(Metric.of("floor.timer").kind().wireName()).isEqualTo("floor");
        for (String id : IDS) {
            assertThat(Metric.of(id).unit().symbol()).isEqualTo("ns");
            assertThat(Kind.ofId(id)).as(id).isEqualTo(Metric.of(id).kind());
            assertThat(Metric.isFloor(id)).as(id).isEqualTo(id.startsWith("floor."));
        }
        // An id from another version keeps its family: an imported floor is still not a Space figure.
        assertThat(Metric.isFloor("floor.some.future.floor")).isTrue();
        assertThat(Kind.ofId("exec.future")).isEqualTo(Kind.EXEC);
        assertThat(Kind.ofId("file.download.3MB")).isEqualTo(Kind.DOWNLOAD);
        assertThat(Kind.ofId("anything")).isEqualTo(Kind.SPACE);
        assertThat(Kind.ofId(null)).isEqualTo(Kind.SPACE);
    }

    @Test
    void pageOrder() {
        List<String> expected = List.of("space.ready", "exec.noop", "exec.true", "exec.sh_c",
                "file.upload.1000B", "file.download.1000B", "file.upload.4KiB",
                "file.upload.1MiB", "file.download.1MiB", "file.download.1536KiB", "file.upload.512MiB", "file.download.2GiB",
                "space.delete", "floor.timer", "floor.spawn.true", "floor.spawn.sh_c", "floor.hyperfine.true", "floor.grpc.noop");
        for (long seed = 1; seed <= 5; seed++) {
            List<Metric> shuffled = new ArrayList<>(IDS.stream().map(Metric::of).toList());
            Collections.shuffle(shuffled, new Random(seed));
            shuffled.sort(Metric.PAGE_ORDER);
            assertThat(shuffled.stream().map(Metric::id).toList()).isEqualTo(expected);
        }
    }
}
