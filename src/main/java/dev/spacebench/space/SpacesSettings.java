package dev.spacebench.space;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code spacebench.spaces.*}.
 *
 * @param root where Spaces keep their work and bulk directories and each run its staging
 *     directory (socket paths under it must stay below 108 bytes); default
 *     {@code ${java.io.tmpdir}/spacebench-spaces}
 */
@ConfigurationProperties("spacebench.spaces")
public record SpacesSettings(Path root) {

    public SpacesSettings {
        root = root != null ? root : Path.of(System.getProperty("java.io.tmpdir"), "spacebench-spaces");
    }
}
