package io.fsindex.api;

/**
 * The database's fsindex tables cannot be used by this version: written by a newer fsindex, missing, or different
 * from what this version expects. The message says what differs.
 */
public class SchemaException extends FsIndexException {
    public SchemaException(String message) {
        super(message);
    }
}
