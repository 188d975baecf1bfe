package io.fsindex.api;

/**
 * The base of every exception fsindex throws. Subclasses say more: {@link FsIndexConfigurationException} (a bad
 * setting), {@link SchemaException} (tables this version cannot use), {@link ScanFailedException} (a scan that could
 * not complete).
 */
public class FsIndexException extends RuntimeException {
    /** @param message what went wrong and, where it helps, what to do about it */
    public FsIndexException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong and, where it helps, what to do about it
     * @param cause   the underlying failure
     */
    public FsIndexException(String message, Throwable cause) {
        super(message, cause);
    }
}
