package dev.spacebench.space.command;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a refused targets file into Spring Boot's start-failure report: what is wrong, where
 * (file, entry, field), and the way out, without a stack trace (registered in {@code META-INF/spring.factories}).
 */
public class TargetsFileAnalyzer extends AbstractFailureAnalyzer<TargetsFileException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, TargetsFileException cause) {
        return new FailureAnalysis(cause.getMessage(), "Fix the entry (docs/targets.example.yaml has working ones; "
                + "docs/kinds.md, Command targets, describes the file), or leave spacebench.targets-file blank.", cause);
    }
}
