package dev.spacebench.channel;

/**
 * A file's identity as the transfer checks it.
 *
 * @param size bytes
 * @param sha256 lower-case hex SHA-256
 */
public record FileRef(long size, String sha256) {
}
