package dev.spacebench.system;

import java.io.IOException;

/** A request body longer than {@link RequestBodyLimit#MAX_BODY_BYTES}, found while it was read (no Content-Length). */
class BodyTooLargeException extends IOException {

    BodyTooLargeException(long max) {
        super("the request body is longer than " + max + " bytes");
    }
}
