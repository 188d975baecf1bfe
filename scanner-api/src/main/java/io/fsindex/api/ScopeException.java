package io.fsindex.api;

/**
 * A scan or a change of stored rules that conflicts with the rules stored for a root ({@link ScanScope}): a scan given
 * rules other than the stored ones, or a scan of a path those rules exclude. Nothing was written; the message says
 * what is stored and how to change it.
 */
public class ScopeException extends FsIndexException {
    /**
     * @param message what conflicts and what to do
     */
    public ScopeException(String message) {
        super(message);
    }

    /**
     * @param message what conflicts and what to do
     * @param cause   the same refusal where it was first thrown (on a scan's own thread)
     */
    public ScopeException(String message, Throwable cause) {
        super(message, cause);
    }
}
