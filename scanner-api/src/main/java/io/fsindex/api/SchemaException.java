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
}
