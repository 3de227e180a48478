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
public record PublishSettings(@DefaultValue(PublishSettings.UPSTREAM) String repositoryUrl) {

    /** Spacebench's own repository: the default, which is not the repository of whoever hosts the pages. */
    public static final String UPSTREAM = "https://github.com/spacebench/spacebench.git";

    /** Whether {@link #repositoryUrl()} is still {@link #UPSTREAM} (the page then says so beside its Reproduce block). */
    public boolean upstream() {
        return UPSTREAM.equals(repositoryUrl);
    }
}
