package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.run.PlanSettings;
import dev.spacebench.fleet.WorkerSettings;
import dev.spacebench.publish.PublishSettings;
import dev.spacebench.space.SpaceSettings;
import dev.spacebench.space.SpacesSettings;
import dev.spacebench.space.container.ContainerSettings;
import dev.spacebench.space.vm.VmSettings;
import dev.spacebench.system.DatabaseAt;
import dev.spacebench.system.ServedAt;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The settings records bind the property names and defaults docs/configuration.md lists (ConfigurationDocsTest checks the page against them). */
class SettingsTest {

    private static final Path TMP = Path.of(System.getProperty("java.io.tmpdir"));

    private static <T> T bind(String prefix, Class<T> type, Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate(prefix, type);
    }

    @Test
    void nothingSetGivesTheDocumentedDefaults() {
        Map<String, String> none = Map.of();
        assertThat(bind("spacebench.spaces", SpacesSettings.class, none).root()).isEqualTo(TMP.resolve("spacebench-spaces"));
        SpaceSettings space = bind("spacebench.space", SpaceSettings.class, none);
        assertThat(space.readyTimeout()).isEqualTo(Duration.ofSeconds(120));
        assertThat(space.checkWait()).isEqualTo(Duration.ofSeconds(20));
        assertThat(space.checksRoot()).isEqualTo(TMP.resolve("spacebench-kind-checks"));
        assertThat(space.defaultKind()).isEmpty();
        assertThat(bind("spacebench.plan", PlanSettings.class, none).maxFileBytes()).isEqualTo(4_294_967_296L);
        WorkerSettings worker = bind("spacebench.worker", WorkerSettings.class, none);
        assertThat(worker.maxConcurrentRuns()).isEqualTo(1);
        assertThat(worker.enabled()).isTrue();
        assertThat(worker.id()).isNullOrEmpty();
        assertThat(worker.testbed()).isNullOrEmpty();
        assertThat(worker.lease()).isEqualTo(Duration.ofSeconds(30));
        assertThat(worker.heartbeat()).isEqualTo(Duration.ofSeconds(5));
        VmSettings vm = bind("spacebench.space.vm", VmSettings.class, none);
        assertThat(vm.qemu()).isEqualTo("qemu-system-x86_64");
        assertThat(vm.accel()).isEqualTo("auto");
        assertThat(vm.kernel()).isNullOrEmpty();
        ContainerSettings container = bind("spacebench.space.container", ContainerSettings.class, none);
        assertThat(container.cli()).isNullOrEmpty();
        assertThat(container.image()).isNullOrEmpty();
        assertThat(bind("server", ServedAt.class, none).address()).isEmpty();
        assertThat(bind("spring.datasource", DatabaseAt.class, none).url()).isEmpty();
        assertThat(bind("spacebench.publish", PublishSettings.class, none).repositoryUrl())
                .isEqualTo("https://github.com/spacebench/spacebench.git");
        // Left at the default, the page says the clone is upstream's, not the publisher's.
        assertThat(bind("spacebench.publish", PublishSettings.class, none).upstream()).isTrue();
    }

    @Test
    void eachPropertyNameReachesItsField() {
        Map<String, String> set = Map.ofEntries(
                Map.entry("spacebench.spaces.root", "/srv/spaces"),
                Map.entry("spacebench.space.ready-timeout", "7s"),
                Map.entry("spacebench.space.check-wait", "250ms"),
                Map.entry("spacebench.space.checks-root", "/srv/checks"),
                Map.entry("spacebench.space.default-kind", "process"),
                Map.entry("spacebench.plan.max-file-bytes", "1073741824"),
                Map.entry("spacebench.worker.max-concurrent-runs", "3"),
                Map.entry("spacebench.worker.id", "bench-7"),
                Map.entry("spacebench.worker.enabled", "false"),
                Map.entry("spacebench.worker.testbed", "arm-1"),
                Map.entry("spacebench.worker.lease", "6s"),
                Map.entry("spacebench.worker.heartbeat", "1s"),
                Map.entry("spacebench.space.vm.qemu", "/opt/qemu"),
                Map.entry("spacebench.space.vm.kernel", "/k"),
                Map.entry("spacebench.space.vm.modules", "/m"),
                Map.entry("spacebench.space.vm.busybox", "/b"),
                Map.entry("spacebench.space.vm.accel", "tcg"),
                Map.entry("spacebench.space.check-on-demand", "vm"),
                Map.entry("spacebench.space.quiet-before-start", "500ms"),
                Map.entry("spacebench.space.quiet-before-loops", "400ms"),
                Map.entry("spacebench.space.container.cli", "docker"),
                Map.entry("spacebench.space.container.image", "space:1"),
                Map.entry("server.address", "0.0.0.0"),
                Map.entry("spring.datasource.url", "jdbc:h2:file:/d/sb"),
                Map.entry("spacebench.publish.repository-url", "https://git.example/sb.git"));
        assertThat(bind("spacebench.spaces", SpacesSettings.class, set).root()).isEqualTo(Path.of("/srv/spaces"));
        assertThat(bind("spacebench.space", SpaceSettings.class, set))
                .isEqualTo(new SpaceSettings(Duration.ofSeconds(7), Duration.ofMillis(250), Path.of("/srv/checks"), "process", List.of("vm"),
                        Duration.ofMillis(500), Duration.ofMillis(400)));
        assertThat(bind("spacebench.plan", PlanSettings.class, set).limits().maxFileBytes()).isEqualTo(1L << 30);
        assertThat(bind("spacebench.worker", WorkerSettings.class, set)).isEqualTo(new WorkerSettings(3, "bench-7", false, "arm-1",
                Duration.ofSeconds(6), Duration.ofSeconds(1)));
        assertThat(bind("spacebench.space.vm", VmSettings.class, set)).isEqualTo(new VmSettings("/opt/qemu", "/k", "/m", "/b", "tcg"));
        assertThat(bind("spacebench.space.container", ContainerSettings.class, set)).isEqualTo(new ContainerSettings("docker", "space:1"));
        assertThat(bind("server", ServedAt.class, set).address()).isEqualTo("0.0.0.0");
        assertThat(bind("spring.datasource", DatabaseAt.class, set).url()).isEqualTo("jdbc:h2:file:/d/sb");
        assertThat(bind("spacebench.publish", PublishSettings.class, set).repositoryUrl()).isEqualTo("https://git.example/sb.git");
        assertThat(bind("spacebench.publish", PublishSettings.class, set).upstream()).isFalse();
    }
}
