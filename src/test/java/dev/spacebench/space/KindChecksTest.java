package dev.spacebench.space;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spacebench.channel.AgentChannels;
import dev.spacebench.space.process.ProcessSpaceProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.grpc.client.ClientInterceptorsConfigurer;
import org.springframework.grpc.client.ShadedNettyGrpcChannelFactory;

/**
 * Kind checks that make real process Spaces: a kind whose check takes long (as a vm booting under
 * emulation does) keeps no other kind "checking", and a kind checked on demand is not checked at
 * start, says so, and is checked when first asked for.
 */
class KindChecksTest {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path temp;

    private GenericApplicationContext context;
    private AgentChannels channels;
    private KindChecks checks;
    /** Holds the "held" kind's Space creation until the test lets it go. */
    private final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void channels() throws Exception {
        context = new GenericApplicationContext();
        context.refresh();
        ClientInterceptorsConfigurer interceptors = new ClientInterceptorsConfigurer(context);
        interceptors.afterPropertiesSet();
        channels = new AgentChannels(new ShadedNettyGrpcChannelFactory(List.of(), interceptors));
    }

    @AfterEach
    void close() {
        release.countDown();
        if (checks != null) {
            checks.stop();
        }
        channels.close();
        context.close();
    }

    @Test
    void aSlowKindKeepsNoOtherKindChecking() throws Exception {
        checks = new KindChecks(List.of(held(), named("quick")), channels, settings(List.of()));
        checks.checkAtStart();

        KindStatus quick = checks.await("quick", WAIT);
        assertThat(quick.passed()).as("quick, checked while held's check is still making its Space: %s", quick).isTrue();
        KindStatus held = checks.statuses().get(0);
        assertThat(held.kind()).isEqualTo("held");
        assertThat(held.checking()).as(held.toString()).isTrue();
        assertThat(held.reason()).as("being checked, not 'not checked yet'").isEmpty();

        release.countDown();
        assertThat(checks.await("held", WAIT).passed()).isTrue();
    }

    @Test
    void aKindCheckedOnDemandIsNotCheckedAtStartAndSaysSoUntilAsked() throws Exception {
        release.countDown();
        checks = new KindChecks(List.of(held(), named("quick")), channels, settings(List.of("quick")));
        checks.checkAtStart();
        assertThat(checks.await("held", WAIT).passed()).as("the kind checked at start").isTrue();
        checks.awaitIdle();

        KindStatus before = checks.statuses().get(1);
        assertThat(before.kind()).isEqualTo("quick");
        assertThat(before.available()).as(before.toString()).isNull();
        assertThat(before.checkedAt()).isNull();
        assertThat(before.reason()).startsWith("not checked yet").contains("spacebench.space.check-on-demand");

        KindStatus asked = checks.await("quick", WAIT);
        assertThat(asked.passed()).as(asked.toString()).isTrue();
        assertThat(asked.reason()).isEmpty();
        assertThat(asked.checkedAt()).isNotNull();
    }

    @Test
    void checkingOnDemandAKindThatDoesNotExistIsRefusedNamingTheKnownKinds() {
        assertThatThrownBy(() -> new KindChecks(List.of(named("quick")), channels, settings(List.of("vmm"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("spacebench.space.check-on-demand names 'vmm', which is not a kind; known: quick");
    }

    private SpaceSettings settings(List<String> onDemand) {
        return new SpaceSettings(Duration.ofSeconds(60), Duration.ofSeconds(1), temp.resolve("checks"), "", onDemand, null, null);
    }

    /** A process Space under another kind's name. */
    private ProcessSpaceProvider named(String kind) {
        return new ProcessSpaceProvider(temp.resolve("spaces")) {
            @Override
            public String kind() {
                return kind;
            }
        };
    }

    /** A process Space whose creation waits for {@link #release}, as a vm's boot under emulation takes long. */
    private ProcessSpaceProvider held() {
        return new ProcessSpaceProvider(temp.resolve("spaces")) {
            @Override
            public String kind() {
                return "held";
            }

            @Override
            public Space create(Path root, SpaceSpec spec, Duration readyTimeout) throws SpaceException {
                try {
                    if (!release.await(WAIT.toSeconds() * 2, TimeUnit.SECONDS)) {
                        throw new SpaceException("the test never let the held kind's check go on");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SpaceException("interrupted");
                }
                return super.create(root, spec, readyTimeout);
            }
        };
    }
}
