package dev.spacebench.agent;

import dev.spacebench.files.Sha256;

/** What the agent received is not what the client said it sent; the agent answers DATA_LOSS. */
final class DigestMismatchException extends RuntimeException {

    DigestMismatchException(String message) {
        super(message);
    }

    /** @throws DigestMismatchException if size or SHA-256 (compared case-insensitively) differ */
    static void check(String path, long expectedSize, String expectedSha256, Sha256.Result got) {
        if (got.size() != expectedSize) {
            throw new DigestMismatchException(path + ": expected " + expectedSize + " bytes, received " + got.size());
        }
        if (!got.sha256().equalsIgnoreCase(expectedSha256)) {
            throw new DigestMismatchException(path + ": expected SHA-256 " + expectedSha256 + ", received " + got.sha256());
        }
    }
}
