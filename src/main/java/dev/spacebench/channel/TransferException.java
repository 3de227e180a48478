package dev.spacebench.channel;

/** A transfer finished but its bytes are not the ones sent: size or SHA-256 differ. */
public class TransferException extends RuntimeException {
    public TransferException(String message) {
        super(message);
    }
}
