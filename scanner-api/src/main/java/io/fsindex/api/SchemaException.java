package io.fsindex.api;

/**
 * The database's fsindex tables cannot be used by this version: written by a newer fsindex, missing, or different
 * from what this version expects. The message says what differs.
 */
public class SchemaException extends FsIndexException {
    /** @param message what differs from what this version expects */
    public SchemaException(String message) {
        super(message);
    }

    /**
     * @param message what could not be done to the tables, and why
     * @param cause   the database's error
     */
    public SchemaException(String message, Throwable cause) {
        super(message, cause);
    }
}
