package dev.spacebench.system;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns {@link H2FilePrivacy.H2ServerRefusedException} into Spring Boot's start-failure report: the
 * reason and the way out, without a stack trace (registered in {@code META-INF/spring.factories}).
 */
public class H2ServerRefusedAnalyzer extends AbstractFailureAnalyzer<H2FilePrivacy.H2ServerRefusedException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, H2FilePrivacy.H2ServerRefusedException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
