package dev.spacebench.agent;

import com.google.protobuf.UnsafeByteOperations;
import dev.spacebench.agent.v1.FileDigest;
import dev.spacebench.agent.v1.ReadFileReply;
import io.grpc.stub.ServerCallStreamObserver;
import dev.spacebench.files.Sha256;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;

/**
 * The agent's side of one ReadFile stream. Sends a chunk only while the transport is ready
 * (gRPC flow control: onReady), so a slow client makes the agent wait instead of buffering the
 * file in memory. After the last chunk it sends the size and SHA-256 of what it sent.
 */
final class FileSender {

    private final String path;
    private final FileChannel in;
    private final int chunkSize;
    private final ServerCallStreamObserver<ReadFileReply> reply;
    private final MessageDigest digest = Sha256.newDigest();
    private long sent;
    private boolean done;

    private FileSender(String path, FileChannel in, int chunkSize, ServerCallStreamObserver<ReadFileReply> reply) {
        this.path = path;
        this.in = in;
        this.chunkSize = chunkSize;
        this.reply = reply;
    }

    /** Opens the file and starts sending as the stream allows. */
    static void start(String path, Path file, int chunkSize, ServerCallStreamObserver<ReadFileReply> reply)
            throws IOException {
        FileSender sender = new FileSender(path, FileChannel.open(file, StandardOpenOption.READ), chunkSize, reply);
        reply.setOnCancelHandler(sender::close);
        reply.setOnReadyHandler(sender::drain);
        // Handlers run serialized on the call's executor; this first drain may already send.
        sender.drain();
    }

    /** System.nanoTime() when the sender was made (the request's arrival), for agent_duration_ns. */
    private final long started = System.nanoTime();

    private void drain() {
        try {
            while (!done && reply.isReady()) {
                byte[] chunk = new byte[chunkSize];
                ByteBuffer buffer = ByteBuffer.wrap(chunk);
                int n;
                while (buffer.hasRemaining() && (n = in.read(buffer)) != -1) {
                    // fill the chunk fully so every message but the last has chunkSize bytes
                }
                int length = buffer.position();
                if (length > 0) {
                    digest.update(chunk, 0, length);
                    sent += length;
                    // The array is never touched again, so wrapping it without a copy is safe.
                    reply.onNext(ReadFileReply.newBuilder()
                            .setChunk(UnsafeByteOperations.unsafeWrap(chunk, 0, length)).build());
                }
                if (length < chunkSize) {
                    done = true;
                    reply.onNext(ReadFileReply.newBuilder().setDigest(FileDigest.newBuilder()
                            .setPath(path).setSize(sent).setSha256(Sha256.hex(digest)).setAgentDurationNs(System.nanoTime() - started)).build());
                    reply.onCompleted();
                    close();
                }
            }
        } catch (IOException | RuntimeException e) {
            done = true;
            close();
            reply.onError(AgentStatus.of(e).asRuntimeException());
        }
    }

    private void close() {
        try {
            in.close();
        } catch (IOException ignored) {
            // nothing to do: the file was only read
        }
    }
}
