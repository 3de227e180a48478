package dev.spacebench.floor;

import com.google.protobuf.UnsafeByteOperations;
import dev.spacebench.agent.v1.AgentGrpc;
import dev.spacebench.agent.v1.FileDigest;
import dev.spacebench.agent.v1.PingReply;
import dev.spacebench.agent.v1.PingRequest;
import dev.spacebench.agent.v1.ReadFileReply;
import dev.spacebench.agent.v1.ReadFileRequest;
import dev.spacebench.agent.v1.WriteFileRequest;
import dev.spacebench.plan.Plans;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

/**
 * The agent's service with nothing behind it: Ping answers at once, WriteFile counts the bytes it
 * receives and drops them, ReadFile streams one payload from memory. No token check, no files,
 * no hashing: what is left is gRPC itself. The other calls stay UNIMPLEMENTED.
 */
final class BareAgentService extends AgentGrpc.AgentImplBase {

    private final byte[] payload;

    /** @param payload what every ReadFile sends, whatever path it names */
    BareAgentService(byte[] payload) {
        this.payload = payload;
    }

    @Override
    public void ping(PingRequest request, StreamObserver<PingReply> reply) {
        reply.onNext(PingReply.newBuilder().setAgentNanos(System.nanoTime()).build());
        reply.onCompleted();
    }

    @Override
    public StreamObserver<WriteFileRequest> writeFile(StreamObserver<FileDigest> reply) {
        return new StreamObserver<>() {
            private String path = "";
            private long received;

            @Override
            public void onNext(WriteFileRequest request) {
                if (request.hasHeader()) {
                    path = request.getHeader().getPath();
                } else {
                    received += request.getChunk().size();
                }
            }

            @Override
            public void onError(Throwable t) {
                // the client gave up; there is nothing to clean
            }

            @Override
            public void onCompleted() {
                reply.onNext(FileDigest.newBuilder().setPath(path).setSize(received).build());
                reply.onCompleted();
            }
        };
    }

    @Override
    public void readFile(ReadFileRequest request, StreamObserver<ReadFileReply> reply) {
        int chunk = request.getChunkSize() == 0 ? Plans.DEFAULT_CHUNK_BYTES : request.getChunkSize();
        MemorySender sender = new MemorySender(request.getPath(), payload, chunk, (ServerCallStreamObserver<ReadFileReply>) reply);
        sender.start();
    }

    /** Sends while the transport is ready, as the agent's FileSender does, then the size last. */
    private static final class MemorySender {
        private final String path;
        private final byte[] payload;
        private final int chunk;
        private final ServerCallStreamObserver<ReadFileReply> call;
        private int offset;
        private boolean done;

        MemorySender(String path, byte[] payload, int chunk, ServerCallStreamObserver<ReadFileReply> call) {
            this.path = path;
            this.payload = payload;
            this.chunk = chunk;
            this.call = call;
        }

        void start() {
            call.setOnCancelHandler(this::cancel);
            call.setOnReadyHandler(this::drain);
            drain();
        }

        private synchronized void drain() {
            while (!done && call.isReady()) {
                if (offset < payload.length) {
                    int length = Math.min(chunk, payload.length - offset);
                    // The payload is never written after start-up, so sending it without a copy is safe.
                    call.onNext(ReadFileReply.newBuilder().setChunk(UnsafeByteOperations.unsafeWrap(payload, offset, length)).build());
                    offset += length;
                } else {
                    done = true;
                    call.onNext(ReadFileReply.newBuilder().setDigest(FileDigest.newBuilder().setPath(path).setSize(offset)).build());
                    call.onCompleted();
                }
            }
        }

        private synchronized void cancel() {
            done = true;
        }
    }
}
