package dev.spacebench.environment;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.info.BuildProperties;
import org.springframework.boot.info.GitProperties;
import org.springframework.stereotype.Component;

/** Reads build-info.properties and git.properties written by the Maven build. */
@Component
public class BuildFacts {

    private final Build build;

    public BuildFacts(ObjectProvider<BuildProperties> buildProperties, ObjectProvider<GitProperties> gitProperties) {
        BuildProperties b = buildProperties.getIfAvailable();
        GitProperties g = gitProperties.getIfAvailable();
        this.build = new Build(
                b == null ? "unknown" : b.getVersion(),
                g == null || g.getCommitId() == null ? "unknown" : g.getCommitId(),
                g != null && "true".equals(g.get("dirty")),
                b == null || b.getTime() == null ? "unknown" : b.getTime().toString());
    }

    public Build build() {
        return build;
    }
}
