package io.fsindex.core.scan;

import io.fsindex.api.DirectoryListing;
import io.fsindex.api.FileKind;
import io.fsindex.api.FileStat;
import io.fsindex.api.ScanError;
import io.fsindex.api.WalkedEntry;
import io.fsindex.api.Walker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The default {@link Walker}: reads directories with NIO and attributes with {@code lstat}, never opening a file.
 * Special files (FIFOs, sockets, devices) are told apart through the {@code unix:mode} attribute where the platform
 * has it. A name or link target that is not valid in the platform's file-name encoding is reported as
 * {@link ScanError.Reason#UNDECODABLE_NAME} instead of being stored as a lossy (and so wrong) string.
 *
 * <p>Not final: {@link #list} reads each listed entry's attributes through {@link #stat}, so a subclass can act in
 * the gap between reading a directory and reading an entry (tests delete the entry there).
 */
public class NioWalker implements Walker {
    private static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};
    private static final int S_IFMT = 0170000;
    private static final int S_IFIFO = 0010000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFBLK = 0060000;
    private static final int S_IFSOCK = 0140000;
    private static final Charset FILE_NAMES = fileNameCharset();

    @Override
    public FileStat stat(Path path) throws IOException {
        return toStat(path, Files.readAttributes(path, BasicFileAttributes.class, NOFOLLOW), true);
    }

    @Override
    public FileStat statFollowingLinks(Path path) throws IOException {
        return toStat(path, Files.readAttributes(path, BasicFileAttributes.class), false);
    }

    @Override
    public DirectoryListing list(Path directory) throws IOException {
        List<WalkedEntry> entries = new ArrayList<>();
        List<ScanError> problems = new ArrayList<>();
        list(directory, Integer.MAX_VALUE, part -> {
            entries.addAll(part.entries());
            problems.addAll(part.problems());
        });
        return new DirectoryListing(entries, problems);
    }

    /** Reads the directory once, handing over each part as soon as it is full: memory stays at one part. */
    @Override
    public void list(Path directory, int partSize, Parts parts) throws IOException {
        List<WalkedEntry> entries = new ArrayList<>(Math.min(partSize, 1_024));
        List<ScanError> problems = new ArrayList<>();
        try (DirectoryStream<Path> children = Files.newDirectoryStream(directory)) {
            for (Path child : children) {
                read(directory, child, entries, problems);
                if (entries.size() == partSize) {
                    parts.accept(new DirectoryListing(entries, problems));
                    entries.clear();
                    problems.clear();
                }
            }
        } catch (java.nio.file.DirectoryIteratorException e) {
            throw e.getCause();
        }
        parts.accept(new DirectoryListing(entries, problems));
    }

    /** Reads one listed child's attributes into {@code entries}, or says in {@code problems} why it cannot. */
    private void read(Path directory, Path child, List<WalkedEntry> entries, List<ScanError> problems) {
        String name = child.getFileName().toString();
        if (!directory.resolve(name).equals(child)) {
            // The platform decoded the name lossily; storing it would name a different file.
            problems.add(new ScanError(child, ScanError.Reason.UNDECODABLE_NAME,
                    "name is not valid in the file-name encoding (" + System.getProperty("sun.jnu.encoding")
                            + "); not recorded"));
            return;
        }
        try {
            entries.add(new WalkedEntry(name, stat(child)));
        } catch (NoSuchFileException gone) {
            // Deleted between the listing and lstat: it no longer exists, which is what the index will say.
        } catch (UndecodableLinkTarget undecodable) {
            problems.add(new ScanError(child, ScanError.Reason.UNDECODABLE_NAME,
                    undecodable.getMessage() + "; row kept as it was"));
            entries.add(new WalkedEntry(name, null));
        } catch (AccessDeniedException denied) {
            problems.add(new ScanError(child, ScanError.Reason.ACCESS_DENIED,
                    "attributes unreadable: permission denied; row kept as it was"));
            entries.add(new WalkedEntry(name, null));
        } catch (IOException e) {
            problems.add(new ScanError(child, ScanError.Reason.IO_ERROR, e.toString() + "; row kept as it was"));
            entries.add(new WalkedEntry(name, null));
        }
    }

    private static FileStat toStat(Path path, BasicFileAttributes a, boolean noFollow) throws IOException {
        long mtime = a.lastModifiedTime().to(TimeUnit.NANOSECONDS);
        FileKind kind;
        String target = null;
        if (a.isSymbolicLink()) {
            kind = FileKind.SYMLINK;
            target = linkTarget(path);
        } else if (a.isDirectory()) {
            kind = FileKind.DIRECTORY;
        } else if (a.isRegularFile()) {
            kind = FileKind.FILE;
        } else {
            kind = special(path, noFollow);
        }
        return new FileStat(kind, a.size(), mtime, target, a.fileKey());
    }

    /** The link's target exactly as stored in it (never normalised), if it decodes losslessly. */
    private static String linkTarget(Path link) throws IOException {
        Path raw = Files.readSymbolicLink(link);
        String text = raw.toString();
        // Only a lossy decoding puts U+FFFD in the text, but so does a valid name that contains it: check the bytes.
        if (text.indexOf('\ufffd') >= 0 && !decodesExactly(raw)) {
            throw new UndecodableLinkTarget(link);
        }
        return text;
    }

    /**
     * NIO keeps a link target's bytes but exposes them only percent-encoded in the path's URI (a {@code Path}
     * built from the decoded text would also be normalised, so comparing paths cannot tell).
     */
    private static boolean decodesExactly(Path raw) {
        String encoded = raw.toUri().getRawPath();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(encoded.length());
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == '%' && i + 2 < encoded.length()) {
                bytes.write(Integer.parseInt(encoded.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                bytes.write(c);
            }
        }
        try {
            FILE_NAMES.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray()));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private static Charset fileNameCharset() {
        try {
            return Charset.forName(System.getProperty("sun.jnu.encoding"));
        } catch (IllegalArgumentException | NullPointerException e) {
            return Charset.defaultCharset();
        }
    }

    /** A link whose target cannot be stored exactly because it is not valid in the file-name encoding. */
    private static final class UndecodableLinkTarget extends IOException {
        UndecodableLinkTarget(Path link) {
            super("link target is not valid in the file-name encoding (" + FILE_NAMES + ")");
        }
    }

    private static FileKind special(Path path, boolean noFollow) {
        try {
            Object mode = noFollow ? Files.getAttribute(path, "unix:mode", NOFOLLOW) : Files.getAttribute(path, "unix:mode");
            return switch (((Integer) mode) & S_IFMT) {
                case S_IFIFO -> FileKind.FIFO;
                case S_IFSOCK -> FileKind.SOCKET;
                case S_IFCHR -> FileKind.CHAR_DEVICE;
                case S_IFBLK -> FileKind.BLOCK_DEVICE;
                default -> FileKind.OTHER;
            };
        } catch (UnsupportedOperationException | IllegalArgumentException | IOException e) {
            return FileKind.OTHER;
        }
    }
}
