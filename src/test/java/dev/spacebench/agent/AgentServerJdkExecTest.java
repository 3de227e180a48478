package dev.spacebench.agent;

/**
 * {@link AgentServerTest}'s calls again with the agent forced onto the JDK's ProcessBuilder
 * ({@code -Dspacebench.agent.exec=jdk}), the path it falls back to where the native one cannot run.
 */
class AgentServerJdkExecTest extends AgentServerTest {

    @Override
    String launch() {
        return "jdk";
    }

    @Override
    String expectedLaunchMechanism() {
        return System.getProperty("jdk.lang.Process.launchMechanism", "JDK default");
    }
}
