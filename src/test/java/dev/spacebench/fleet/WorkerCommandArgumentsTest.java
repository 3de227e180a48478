package dev.spacebench.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code worker}'s command line through picocli: --testbed is its own, any other option goes to Spring unchanged and in order. */
class WorkerCommandArgumentsTest {

    @Test
    void springOptionsPassThroughUnchangedAndTheTestbedBecomesItsProperty() {
        WorkerCommand worker = new WorkerCommand();
        new CommandLine(worker).parseArgs("--spring.datasource.url=jdbc:postgresql://db:5432/spacebench", "--testbed", "lab-1",
                "--spring.profiles.active", "postgres", "--spacebench.worker.lease=45s");
        assertThat(worker.springArguments()).containsExactly("--spacebench.worker.enabled=true", "--spacebench.worker.testbed=lab-1",
                "--spring.datasource.url=jdbc:postgresql://db:5432/spacebench", "--spring.profiles.active", "postgres",
                "--spacebench.worker.lease=45s");
    }

    @Test
    void theTestbedInItsEqualsFormAndNoTestbed() {
        WorkerCommand named = new WorkerCommand();
        new CommandLine(named).parseArgs("--testbed=lab-2");
        assertThat(named.springArguments()).containsExactly("--spacebench.worker.enabled=true", "--spacebench.worker.testbed=lab-2");

        WorkerCommand unnamed = new WorkerCommand();
        new CommandLine(unnamed).parseArgs("--server.port=0");
        assertThat(unnamed.springArguments()).containsExactly("--spacebench.worker.enabled=true", "--server.port=0");
    }
}
