package dev.spacebench.channel.ssh;

/** A call over SSH failed; the message names the call and the server's or the transport's reason. */
public class SshChannelException extends RuntimeException {
    public SshChannelException(String message, Throwable cause) {
        super(message, cause);
    }
}
