package dev.spacebench.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.agent.v1.AgentGrpc;
import io.grpc.Attributes;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.Status;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Ping runs where it arrives (no hand-off to gRPC's pool); Exec and the file calls do not. */
class CallExecutorsTest {

    @Test
    void onlyPingRunsOnTheTransportThread() {
        assertThat(runsInline(AgentGrpc.getPingMethod())).isTrue();
        for (MethodDescriptor<?, ?> method : new MethodDescriptor<?, ?>[] {AgentGrpc.getExecMethod(), AgentGrpc.getWriteFileMethod(),
                AgentGrpc.getReadFileMethod(), AgentGrpc.getInfoMethod()}) {
            assertThat(CallExecutors.pingInline().getExecutor(call(method), new Metadata())).as(method.getFullMethodName()).isNull();
        }
    }

    /** Whether the executor chosen for the method runs a task on the calling thread, at once. */
    private static boolean runsInline(MethodDescriptor<?, ?> method) {
        var executor = CallExecutors.pingInline().getExecutor(call(method), new Metadata());
        if (executor == null) {
            return false;
        }
        AtomicReference<Thread> ran = new AtomicReference<>();
        executor.execute(() -> ran.set(Thread.currentThread()));
        return ran.get() == Thread.currentThread();
    }

    private static <Q, R> ServerCall<Q, R> call(MethodDescriptor<Q, R> method) {
        return new ServerCall<>() {
            @Override public void request(int numMessages) {}
            @Override public void sendHeaders(Metadata headers) {}
            @Override public void sendMessage(R message) {}
            @Override public void close(Status status, Metadata trailers) {}
            @Override public boolean isCancelled() { return false; }
            @Override public MethodDescriptor<Q, R> getMethodDescriptor() { return method; }
            @Override public Attributes getAttributes() { return Attributes.EMPTY; }
        };
    }
}
