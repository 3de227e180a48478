package dev.spacebench.space;

import java.nio.file.Path;
import java.security.PublicKey;

/**
 * How to reach a Space's own SSH server, for the SSH channel. Holds no secret: the client's
 * private key stays in its file (mode 0600, inside the Space's directory), named here by path.
 *
 * @param host loopback address the server listens on
 * @param port its TCP port
 * @param user the user to log in as
 * @param hostKey the host key the Space's server was given: the only key the client accepts
 * @param clientKey the file of the client's private key (OpenSSH format, 0600), made for this Space alone
 * @param workDir the Space's work directory as the server's side sees it: remote paths are relative to it
 */
public record SshAccess(String host, int port, String user, PublicKey hostKey, Path clientKey, String workDir) {

    /** For a page or a log: where, never the key's content. */
    @Override
    public String toString() {
        return "ssh " + user + "@" + host + ":" + port;
    }
}
