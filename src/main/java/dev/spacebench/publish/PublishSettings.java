package dev.spacebench.publish;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code spacebench.publish.*}.
 *
 * @param repositoryUrl where a page's Reproduce block clones Spacebench from; whoever hosts the
 *     pages sets it to the repository their runs were built from
 */
@ConfigurationProperties("spacebench.publish")
public record PublishSettings(@DefaultValue("https://github.com/spacebench/spacebench.git") String repositoryUrl) {
}
