package io.fsindex.api;

/**
 * A scan could not complete: its root is missing or unreadable, the database failed, or the JVM does not read file
 * names as UTF-8 (then the scan fails before it writes anything). A failed scan deletes nothing, so a listing that
 * failed can never look like "everything was deleted".
 */
public class ScanFailedException extends FsIndexException {
    /**
     * @param message what failed
     * @param cause   the underlying failure
     */
    public ScanFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
