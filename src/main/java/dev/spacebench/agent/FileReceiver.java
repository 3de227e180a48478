package dev.spacebench.agent;

import dev.spacebench.agent.v1.FileDigest;
import dev.spacebench.agent.v1.WriteFileHeader;
import dev.spacebench.agent.v1.WriteFileRequest;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import dev.spacebench.files.Sha256;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.UUID;

/**
 * The agent's side of one WriteFile stream: header first, then chunks written to a temporary
 * file and hashed as they arrive; on completion size and SHA-256 are checked and the file is
 * renamed into place atomically. Any failure removes the temporary file, so a failed or
 * mismatched upload leaves nothing behind.
 */
final class FileReceiver implements StreamObserver<WriteFileRequest> {

    private final WorkDir workDir;
    private final StreamObserver<FileDigest> reply;

    private WriteFileHeader header;
    private Path target;
    private Path temp;
    private FileChannel out;
    private MessageDigest digest;
    private long received;
    private boolean finished;

    /** System.nanoTime() at the header, for agent_duration_ns. */
    private long started;

    FileReceiver(WorkDir workDir, StreamObserver<FileDigest> reply) {
        this.workDir = workDir;
        this.reply = reply;
    }

    @Override
    public void onNext(WriteFileRequest request) {
        if (finished) {
            return;
        }
        try {
            if (request.hasHeader()) {
                open(request.getHeader());
            } else if (header == null) {
                fail(Status.INVALID_ARGUMENT.withDescription("the first WriteFile message must be the header"));
            } else {
                for (ByteBuffer part : request.getChunk().asReadOnlyByteBufferList()) {
                    received += part.remaining();
                    digest.update(part.duplicate());
                    while (part.hasRemaining()) {
                        out.write(part);
                    }
                }
                if (received > header.getSize()) {
                    fail(Status.DATA_LOSS.withDescription(header.getPath() + ": received more than the announced "
                            + header.getSize() + " bytes"));
                }
            }
        } catch (RuntimeException | IOException e) {
            fail(AgentStatus.of(e));
        }
    }

    private void open(WriteFileHeader given) throws IOException {
        started = System.nanoTime();
        if (header != null) {
            fail(Status.INVALID_ARGUMENT.withDescription("only one WriteFile header is allowed"));
            return;
        }
        if (given.getSize() < 0) {
            fail(Status.INVALID_ARGUMENT.withDescription("size must be >= 0, was " + given.getSize()));
            return;
        }
        if (!given.getSha256().matches("[0-9a-fA-F]{64}")) {
            fail(Status.INVALID_ARGUMENT.withDescription("sha256 must be 64 hex digits"));
            return;
        }
        target = workDir.resolveFile(given.getPath());
        Files.createDirectories(target.getParent());
        temp = target.resolveSibling("." + target.getFileName() + ".sb-" + UUID.randomUUID());
        out = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        digest = Sha256.newDigest();
        header = given;
    }

    @Override
    public void onError(Throwable t) {
        // The client went away; drop what was written.
        finished = true;
        cleanUp();
    }

    @Override
    public void onCompleted() {
        if (finished) {
            return;
        }
        if (header == null) {
            fail(Status.INVALID_ARGUMENT.withDescription("the stream ended before a header was sent"));
            return;
        }
        try {
            out.close();
            Sha256.Result got = new Sha256.Result(received, Sha256.hex(digest));
            DigestMismatchException.check(header.getPath(), header.getSize(), header.getSha256(), got);
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            finished = true;
            reply.onNext(FileDigest.newBuilder().setPath(header.getPath()).setSize(got.size()).setSha256(got.sha256())
                    .setAgentDurationNs(System.nanoTime() - started).build());
            reply.onCompleted();
        } catch (RuntimeException | IOException e) {
            fail(AgentStatus.of(e));
        }
    }

    private void fail(Status status) {
        finished = true;
        cleanUp();
        reply.onError(status.asRuntimeException());
    }

    private void cleanUp() {
        try {
            if (out != null) {
                out.close();
            }
            if (temp != null) {
                Files.deleteIfExists(temp);
            }
        } catch (IOException ignored) {
            // Best effort: the Space's work directory is removed with the Space anyway.
        }
    }
}
