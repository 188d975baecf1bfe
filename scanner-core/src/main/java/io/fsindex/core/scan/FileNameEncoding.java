package io.fsindex.core.scan;

import io.fsindex.api.ScanFailedException;
import java.io.IOError;
import java.nio.file.FileSystems;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Whether this JVM reads file names as UTF-8, the only encoding in which every scanner sharing an index stores the
 * same name for the same file.
 *
 * <p>On Linux and other Unix systems the JVM decodes names with the encoding of its locale ({@code LC_ALL},
 * {@code LC_CTYPE}, {@code LANG}), fixed at startup. Without a locale that is ASCII: a name outside ASCII cannot even
 * be turned back into a path. With a single-byte locale such as ISO-8859-1 every name decodes, but to other text
 * than a UTF-8 scanner stores, so two scanners of one tree would each delete what the other added. macOS always
 * decodes as UTF-8, and Windows hands names to the JVM as UTF-16, so both pass whatever their locale.
 *
 * <p>The check asks the default file system itself rather than trusting a property name: it encodes a name holding
 * a Latin letter and a character outside the Basic Multilingual Plane, and reads back the bytes through the path's
 * URI, which carries a Unix path's exact bytes.
 */
public final class FileNameEncoding {
    /** An accented letter and an emoji: a single-byte encoding gets the first wrong, a 16-bit one the second. */
    private static final String PROBE = "\u00e9\ud83d\ude00";
    private static final String PROBE_AS_UTF8 = "%C3%A9%F0%9F%98%80";
    private static final boolean UTF8 = probe();

    private FileNameEncoding() {
    }

    /** True if this JVM's default file system reads and writes names as UTF-8, so they are stored byte for byte. */
    public static boolean isUtf8() {
        return UTF8;
    }

    /**
     * Refuses to scan {@code root} on the default file system when names would not decode as UTF-8: called before
     * the scan writes anything, so such a JVM leaves the index as it was.
     */
    public static void requireUtf8(Path root) {
        if (!UTF8 && root.getFileSystem() == FileSystems.getDefault()) {
            throw new ScanFailedException("cannot scan " + root + ": this JVM reads file names as "
                    + System.getProperty("sun.jnu.encoding", "an encoding") + ", not UTF-8, so names outside ASCII"
                    + " would be lost or misread; nothing was written: run the JVM with a UTF-8 locale, e.g."
                    + " LC_ALL=C.UTF-8", null);
        }
    }

    private static boolean probe() {
        try {
            String uri = FileSystems.getDefault().getPath(PROBE).toUri().toASCIIString();
            // A directory's URI ends in '/'; the probe name is relative to the working directory, which may hold one.
            return uri.endsWith("/" + PROBE_AS_UTF8) || uri.endsWith("/" + PROBE_AS_UTF8 + "/");
        } catch (InvalidPathException | IOError unmappable) {
            return false;
        }
    }
}
