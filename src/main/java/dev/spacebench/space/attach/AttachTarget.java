package dev.spacebench.space.attach;

import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.net.UnknownHostException;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * Where a running agent listens, as the {@code attach} kind accepts it: a unix socket, or a TCP
 * port on a loopback address. Other hosts are refused because the agent channel is plaintext: a
 * token sent across a network could be read on the way (reach a remote agent through an SSH
 * tunnel to a local port or socket instead).
 *
 * @param socket the unix socket's path, or null for TCP
 * @param host a loopback host name or address, or null for a unix socket
 * @param port 1 to 65535 for TCP
 */
record AttachTarget(Path socket, String host, int port) {

    /**
     * @param target {@code unix:/path}, {@code HOST:PORT} or {@code tcp:HOST:PORT} ({@code [::1]:PORT} for IPv6)
     * @throws SpaceException naming what is wrong with it
     */
    static AttachTarget parse(String target) throws SpaceException {
        if (target == null || target.isBlank()) {
            throw new SpaceException("the attach kind needs space.target: unix:/path or HOST:PORT of a running agent");
        }
        if (target.startsWith("unix:")) {
            String path = target.substring("unix:".length());
            if (!path.startsWith("/")) {
                throw new SpaceException("space.target must be unix: and an absolute socket path, was '" + target + "'");
            }
            return new AttachTarget(Path.of(path), null, 0);
        }
        String hostPort = target.startsWith("tcp:") ? target.substring("tcp:".length()) : target;
        int colon = hostPort.lastIndexOf(':');
        int port = -1;
        if (colon > 0) {
            try {
                port = Integer.parseInt(hostPort.substring(colon + 1));
            } catch (NumberFormatException ignored) {
                // reported below
            }
        }
        if (port < 1 || port > 65535) {
            throw new SpaceException("space.target must be unix:/path, HOST:PORT or tcp:HOST:PORT with a port from 1 to 65535, was '"
                    + target + "'");
        }
        String host = hostPort.substring(0, colon);
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        try {
            if (!InetAddress.getByName(bare).isLoopbackAddress()) {
                throw new SpaceException("space.target " + target + " is not on a loopback address; the agent channel is "
                        + "plaintext, so reach a remote agent through a tunnel to a local port or unix socket");
            }
        } catch (UnknownHostException e) {
            throw new SpaceException("space.target host '" + bare + "' is unknown");
        }
        return new AttachTarget(null, bare, port);
    }

    /** The gRPC target for {@link Space#target()}. */
    String grpcTarget() {
        return socket != null ? "unix:" + socket : (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /** Opens and closes one connection, so a missing agent is found at create and not in the first call. */
    void probe() throws IOException {
        if (socket != null) {
            try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
                channel.connect(UnixDomainSocketAddress.of(socket));
            }
        } else {
            try (Socket tcp = new Socket()) {
                tcp.connect(new InetSocketAddress(host, port), 1_000);
            }
        }
    }
}
