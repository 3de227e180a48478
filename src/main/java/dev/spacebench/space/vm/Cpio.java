package dev.spacebench.space.vm;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes a cpio archive in the "newc" format, the one the Linux kernel unpacks as an initramfs
 * (uncompressed is fine). Only what an initramfs needs: directories, files, symlinks, all owned
 * by root. Call {@link #finish()} to write the trailer; the stream is not closed.
 */
final class Cpio {

    private static final int DIRECTORY = 0040000;
    private static final int FILE = 0100000;
    private static final int SYMLINK = 0120000;

    private final OutputStream out;
    private long written;
    private int inode = 1;

    Cpio(OutputStream out) {
        this.out = out;
    }

    /** @param path relative, no leading slash, e.g. {@code bin} */
    void directory(String path) throws IOException {
        entry(path, DIRECTORY | 0755, 2, new byte[0]);
    }

    /** @param mode permission bits, e.g. {@code 0755} */
    void file(String path, int mode, byte[] content) throws IOException {
        entry(path, FILE | mode, 1, content);
    }

    void symlink(String path, String target) throws IOException {
        entry(path, SYMLINK | 0777, 1, target.getBytes(StandardCharsets.UTF_8));
    }

    void finish() throws IOException {
        entry("TRAILER!!!", 0, 1, new byte[0]);
        out.flush();
    }

    private void entry(String path, int mode, int links, byte[] data) throws IOException {
        byte[] name = (path + "\0").getBytes(StandardCharsets.UTF_8);
        // magic, ino, mode, uid, gid, nlink, mtime, filesize, devmajor, devminor, rdevmajor,
        // rdevminor, namesize, check: each 8 hex digits
        StringBuilder header = new StringBuilder("070701");
        for (long field : new long[] {inode++, mode, 0, 0, links, 0, data.length, 0, 0, 0, 0, name.length, 0}) {
            header.append(String.format("%08x", field));
        }
        write(header.toString().getBytes(StandardCharsets.US_ASCII));
        write(name);
        pad();
        write(data);
        pad();
    }

    private void write(byte[] bytes) throws IOException {
        out.write(bytes);
        written += bytes.length;
    }

    /** newc aligns the name and the data to 4 bytes. */
    private void pad() throws IOException {
        while (written % 4 != 0) {
            out.write(0);
            written++;
        }
    }
}
