package io.fsindex.core.content;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Reads one file's content and hashes it (see {@link io.fsindex.api.ContentHashing} for what the values are). The
 * fingerprint reads the first and last {@link #BLOCK} bytes with positional reads; the full hash streams the whole
 * file through one fixed buffer, so memory use does not depend on the file's size.
 */
public final class ContentHasher {
    /** How much of each end of a file the fingerprint covers. */
    static final int BLOCK = 64 * 1024;
    private static final int BUFFER = 64 * 1024;

    /** What was read: the fingerprint, the full hash (null unless asked for), and how many bytes the file had. */
    public record Hashes(String fingerprint, String full, long size) {
    }

    /** The file changed while it was being read: it no longer has the size it had when reading began. */
    static final class ChangedWhileReading extends IOException {
        ChangedWhileReading(Path path) {
            super(path + " changed while it was being read");
        }
    }

    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER);

    /**
     * Hashes {@code path}, expected to be {@code size} bytes long.
     *
     * @throws ChangedWhileReading if fewer or more bytes than {@code size} were there to read
     */
    public Hashes hash(Path path, long size, boolean full) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            String fingerprint = fingerprint(ch, path, size);
            String whole = full ? full(ch, path, size) : null;
            return new Hashes(fingerprint, whole, size);
        }
    }

    private String fingerprint(FileChannel ch, Path path, long size) throws IOException {
        MessageDigest md = sha256();
        md.update(ByteBuffer.allocate(Long.BYTES).putLong(size).array());
        int head = (int) Math.min(size, BLOCK);
        readFully(ch, path, 0, head, md);
        readFully(ch, path, size - head, head, md);
        return HexFormat.of().formatHex(md.digest());
    }

    private String full(FileChannel ch, Path path, long size) throws IOException {
        MessageDigest md = sha256();
        long pos = 0;
        while (true) {
            buffer.clear();
            int n = ch.read(buffer, pos);
            if (n < 0) {
                break;
            }
            buffer.flip();
            md.update(buffer);
            pos += n;
            if (pos > size) {
                throw new ChangedWhileReading(path);
            }
        }
        if (pos != size) {
            throw new ChangedWhileReading(path);
        }
        return HexFormat.of().formatHex(md.digest());
    }

    /** Feeds bytes [{@code from}, {@code from + length}) to {@code md} with positional reads. */
    private void readFully(FileChannel ch, Path path, long from, int length, MessageDigest md) throws IOException {
        long pos = from;
        long end = from + length;
        while (pos < end) {
            buffer.clear();
            buffer.limit((int) Math.min(buffer.capacity(), end - pos));
            int n = ch.read(buffer, pos);
            if (n < 0) {
                throw new ChangedWhileReading(path);
            }
            buffer.flip();
            md.update(buffer);
            pos += n;
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
