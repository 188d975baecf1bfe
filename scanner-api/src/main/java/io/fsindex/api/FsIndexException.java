package io.fsindex.api;

/** The base of every exception fsindex throws. */
public class FsIndexException extends RuntimeException {
    public FsIndexException(String message) {
        super(message);
    }

    public FsIndexException(String message, Throwable cause) {
        super(message, cause);
    }
}
