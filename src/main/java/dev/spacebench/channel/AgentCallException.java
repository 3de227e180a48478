package dev.spacebench.channel;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;

/** A call to the agent failed with a gRPC status; the message carries the code and the agent's reason. */
public class AgentCallException extends RuntimeException {

    private final Status.Code code;

    public AgentCallException(String call, StatusRuntimeException cause) {
        super(call + " failed: " + cause.getStatus().getCode()
                + (cause.getStatus().getDescription() == null ? "" : " (" + cause.getStatus().getDescription() + ")"), cause);
        this.code = cause.getStatus().getCode();
    }

    public Status.Code code() {
        return code;
    }

    static RuntimeException of(String call, Throwable t) {
        if (t instanceof StatusRuntimeException sre) {
            if (sre.getStatus().getCode() == Status.Code.DATA_LOSS) {
                return new TransferException(call + ": the agent reports " + sre.getStatus().getDescription());
            }
            return new AgentCallException(call, sre);
        }
        if (t instanceof RuntimeException re) {
            return re;
        }
        return new IllegalStateException(call + " failed: " + t, t);
    }
}
