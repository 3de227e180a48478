package dev.spacebench.space;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.channel.AgentChannel;
import dev.spacebench.channel.AgentChannels;
import dev.spacebench.space.local.AgentLauncher;
import dev.spacebench.space.local.AgentProcess;
import dev.spacebench.space.local.LocalSpaceContract;
import dev.spacebench.space.local.ProcessTrees;
import dev.spacebench.space.local.SpaceDir;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.grpc.client.ClientInterceptorsConfigurer;
import org.springframework.grpc.client.ShadedNettyGrpcChannelFactory;

/**
 * The app's own channel path reaches an agent on a unix socket, as the sandbox and container
 * kinds need, without leaving an event loop behind per channel (Spring gRPC's unix path used TLS
 * and leaked one).
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
            AgentChannels channels = new AgentChannels(factory);
            try {
                long epollBefore = 0;
                for (int run = 0; run < 4; run++) {
                    try (AgentChannel channel = channels.open(agent.target(), dir.token().token(), dir.bulk(), 1 << 20)) {
                        channel.ping(SpaceChecks.TIMEOUT);
                    }
                    if (run == 0) {
                        epollBefore = epollDescriptors();
                    }
                }
                // One channel per run: a run must not leave an event loop behind. Other tests in this JVM
                // may close theirs meanwhile, so the count may fall; it must not grow.
                assertThat(epollDescriptors()).as("epoll descriptors after 3 more channels").isLessThanOrEqualTo(epollBefore);
            } finally {
                channels.close();
                factory.destroy();
            }
        } finally {
            ProcessTrees.kill(agent.process().toHandle());
        }
    }

    private static long epollDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().equals("anon_inode:[eventpoll]");
                } catch (IOException e) {
                    return false;
                }
            }).count();
        }
    }
}
