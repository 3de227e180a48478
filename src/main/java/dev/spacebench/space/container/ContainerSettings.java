package dev.spacebench.space.container;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code spacebench.space.container.*}.
 *
 * @param cli podman or docker; blank (the default): podman if on PATH, else docker
 * @param image an image built from docker/space/Dockerfile; blank (the default): the host's OS as
 *     a read-only root (podman only)
 */
@ConfigurationProperties("spacebench.space.container")
public record ContainerSettings(String cli, String image) {
}
