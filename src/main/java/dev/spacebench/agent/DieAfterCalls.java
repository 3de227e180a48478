package dev.spacebench.agent;

import dev.spacebench.agent.v1.AgentGrpc;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fault to inject on purpose: {@value #VARIABLE}{@code =METHOD:N} (e.g. {@code Exec:7}) makes the
 * agent answer its first N calls of METHOD and then die, the way {@code kill -9} ends it, at the
 * first call of any kind that arrives after the N-th answer: that call gets no answer, the process
 * exits with status 137 and nothing of it runs (no shutdown hook, no cleanup). With a serial
 * client (the app's loops), the N-th answer has then been read, so the agent is dead exactly
 * between it and the next call, every time: the gap no signal sent from outside hits reliably.
 *
 * <p>Only read at the agent's start, and only installed when set: without it the agent's calls
 * pass through no code of this class. A process Space's agent inherits the app's environment, so
 * setting it for the app reaches it.
 */
final class DieAfterCalls implements ServerInterceptor {

    /** The environment variable that asks for it. */
    static final String VARIABLE = "SPACEBENCH_AGENT_DIE_AFTER";
    /** As a process killed by SIGKILL reports itself: 128 + 9. */
    static final int EXIT_STATUS = 137;

    private final String method;
    private final int calls;
    private final AtomicInteger answered = new AtomicInteger();

    private DieAfterCalls(String method, int calls) {
        this.method = method;
        this.calls = calls;
    }

    /**
     * @param value the variable's value, null or blank when it is not set
     * @return the interceptor to install first, empty when not asked for
     * @throws IllegalArgumentException naming the variable, the form and the agent's methods when the value is not {@code METHOD:N}
     */
    static Optional<DieAfterCalls> parse(String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        List<String> methods = AgentGrpc.getServiceDescriptor().getMethods().stream()
                .map(m -> ((MethodDescriptor<?, ?>) m).getBareMethodName()).toList();
        String usage = VARIABLE + " must be METHOD:N, N from 1 to " + Integer.MAX_VALUE + " and METHOD one of " + methods
                + " (e.g. Exec:7), was " + ClientText.quote(value);
        int colon = value.lastIndexOf(':');
        if (colon <= 0 || !methods.contains(value.substring(0, colon))) {
            throw new IllegalArgumentException(usage);
        }
        int calls;
        try {
            calls = Integer.parseInt(value.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(usage);
        }
        if (calls < 1) {
            throw new IllegalArgumentException(usage);
        }
        return Optional.of(new DieAfterCalls(value.substring(0, colon), calls));
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        if (answered.get() >= calls) {
            System.err.println("spacebench agent: dying without answering " + call.getMethodDescriptor().getBareMethodName()
                    + ", as " + VARIABLE + "=" + method + ":" + calls + " asks (" + calls + " " + method + " calls answered)");
            System.err.flush();
            Runtime.getRuntime().halt(EXIT_STATUS);
        }
        if (!call.getMethodDescriptor().getBareMethodName().equals(method)) {
            return next.startCall(call, headers);
        }
        return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
            @Override
            public void close(Status status, Metadata trailers) {
                super.close(status, trailers);
                answered.incrementAndGet();
            }
        }, headers);
    }
}
