package dev.spacebench.space.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.space.SpaceProvider.Availability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the container kind says when it cannot run, with a {@code docker} of our own: a shell
 * script that answers {@code info} as the docker CLI does with no daemon behind it (the message
 * and exit code 1 of docker 28's client), or as one with a daemon. The kind runs it as it would
 * run docker.
 */
class ContainerAvailabilityTest {

    /** What docker 28's client prints on stderr, exit code 1, when /var/run/docker.sock has no daemon. */
    private static final String NO_DAEMON = "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?";

    @TempDir
    Path temp;

    @Test
    void aDockerCliWithoutDaemonPointsAtInstallingPodmanAndRunc() throws Exception {
        Path docker = docker("""
                if [ "$1" = info ]; then echo 'Client:'; echo ' Version: 28.2.2'; echo "%s" >&2; exit 1; fi
                exit 1
                """.formatted(NO_DAEMON));
        Availability availability = new ContainerSpaceProvider(temp.resolve("spaces"), docker.toString(), "").availability();

        assertThat(availability.available()).isFalse();
        assertThat(availability.reason()).isEqualTo("docker is installed but no docker daemon answers (docker info: " + NO_DAEMON + ")");
        assertThat(availability.fix()).startsWith("apt-get install podman runc")
                .contains("no image to build")
                .contains("or start the docker daemon and set spacebench.space.container.image");
    }

    @Test
    void withAnImageConfiguredTheFixStartsWithTheDaemonAndSaysToBlankTheImageForPodman() throws Exception {
        Path docker = docker("echo \"%s\" >&2; exit 1\n".formatted(NO_DAEMON));
        Availability availability = new ContainerSpaceProvider(temp.resolve("spaces"), docker.toString(), "spacebench-space:1")
                .availability();

        assertThat(availability.available()).isFalse();
        assertThat(availability.fix()).startsWith("start the docker daemon; or apt-get install podman runc")
                .endsWith("leave spacebench.space.container.image blank (it is spacebench-space:1)");
    }

    @Test
    void aDockerWithItsDaemonButNoImageOffersPodmanBeforeBuildingAnImage() throws Exception {
        Path docker = docker("if [ \"$1\" = info ]; then echo 'Server Version: 28.2.2'; exit 0; fi\nexit 1\n");
        Availability availability = new ContainerSpaceProvider(temp.resolve("spaces"), docker.toString(), "").availability();

        assertThat(availability.available()).isFalse();
        assertThat(availability.reason()).startsWith("docker cannot run the host's OS (no --rootfs)");
        assertThat(availability.fix()).startsWith("apt-get install podman runc").contains("docker/space/Dockerfile");
    }

    @Test
    void aConfiguredToolThatIsNotThereIsNamed() {
        Availability availability = new ContainerSpaceProvider(temp.resolve("spaces"), temp.resolve("no-such-docker").toString(), "")
                .availability();

        assertThat(availability.available()).isFalse();
        assertThat(availability.reason()).isEqualTo("spacebench.space.container.cli=" + temp.resolve("no-such-docker") + " not found");
    }

    /** An executable {@code docker} in its own directory that runs {@code body} with sh. */
    private Path docker(String body) throws Exception {
        Path script = Files.createDirectories(temp.resolve("bin")).resolve("docker");
        Files.writeString(script, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }
}
