package dev.spacebench.agent;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Refuses every call that does not carry the Space's token as {@code authorization: Bearer <token>}
 * metadata, with UNAUTHENTICATED. Services listed as open (health checks) pass without it.
 */
public final class TokenInterceptor implements ServerInterceptor {

    public static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    private final byte[] expected;

    /** @param token the Space's token; must not be blank */
    public TokenInterceptor(String token) {
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("the agent needs a non-blank token");
        }
        this.expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        String given = headers.get(AUTHORIZATION);
        // Constant-time compare, so the token cannot be guessed byte by byte from timing.
        if (given == null || !MessageDigest.isEqual(expected, given.getBytes(StandardCharsets.UTF_8))) {
            call.close(Status.UNAUTHENTICATED.withDescription(
                    given == null ? "missing 'authorization: Bearer <token>' metadata"
                            : "the token does not match this Space's token"), new Metadata());
            return new ServerCall.Listener<>() {};
        }
        return next.startCall(call, headers);
    }
}
