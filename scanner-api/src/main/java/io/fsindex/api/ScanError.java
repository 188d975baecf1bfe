package io.fsindex.api;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Something a scan could not record, with where and why. A scan that reports errors still completes; what it could
 * not read is left in the index as it was.
 *
 * @param path    the path concerned (for an undecodable name, the path as Java renders it)
 * @param reason  the kind of problem
 * @param message a human-readable explanation
 */
public record ScanError(Path path, Reason reason, String message) {
    /**
     * Checks that path, reason and message are given.
     *
     * @param path    the path concerned (for an undecodable name, the path as Java renders it)
     * @param reason  the kind of problem
     * @param message a human-readable explanation
     */
    public ScanError {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(message, "message");
    }

    /** Why an entry could not be recorded. */
    public enum Reason {
        /** The directory or entry could not be read because permission was denied; its rows are kept. */
        ACCESS_DENIED,
        /** The name's bytes cannot be decoded in the platform's file-name encoding, so it cannot be stored exactly. */
        UNDECODABLE_NAME,
        /** Following a symbolic link would revisit one of its own ancestors. */
        SYMLINK_LOOP,
        /** Any other I/O failure while reading the filesystem. */
        IO_ERROR,
        /**
         * A watch lost change notifications for this subtree (the event queue overflowed); it scans the subtree again.
         */
        EVENTS_LOST,
        /**
         * A watch cannot watch this directory (the kernel's watch limit, a filesystem without notifications, a
         * registration error, or a missing root); it scans the subtree periodically instead and says what to do.
         */
        NOT_WATCHED
    }

    @Override
    public String toString() {
        return reason + " " + path + ": " + message;
    }
}
