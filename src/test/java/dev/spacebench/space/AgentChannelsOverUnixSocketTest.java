package dev.spacebench.space;

import dev.spacebench.channel.AgentChannel;
import dev.spacebench.channel.AgentChannels;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.grpc.client.ClientInterceptorsConfigurer;
import org.springframework.grpc.client.ShadedNettyGrpcChannelFactory;

/**
 * The app's own channel path (Spring gRPC's shaded-Netty factory) reaches an agent on a unix
 * socket, as the sandbox and container kinds need: that path once defaulted to TLS.
 */
class AgentChannelsOverUnixSocketTest {

    @TempDir
    Path root;

    @Test
    void pingsAnAgentOnAUnixSocket() throws Exception {
        SpaceDir dir = SpaceDir.create(root, "unix");
        List<String> command = new ArrayList<>(AgentLauncher.command());
        command.addAll(dir.agentArguments("unix:" + dir.socket()));
        AgentProcess agent = AgentProcess.start(command, dir.work(), dir.log(), LocalSpaceContract.READY_TIMEOUT);
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            context.refresh();
            ClientInterceptorsConfigurer interceptors = new ClientInterceptorsConfigurer(context);
            interceptors.afterPropertiesSet();
            ShadedNettyGrpcChannelFactory factory = new ShadedNettyGrpcChannelFactory(List.of(), interceptors);
            try (AgentChannel channel = new AgentChannels(factory).open(agent.target(), dir.token().token(), dir.bulk(), 1 << 20)) {
                channel.ping(SpaceChecks.TIMEOUT);
            } finally {
                factory.destroy();
            }
        } finally {
            ProcessTrees.kill(agent.process().toHandle());
        }
    }
}
