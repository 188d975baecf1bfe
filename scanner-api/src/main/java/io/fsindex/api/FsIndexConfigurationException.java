package io.fsindex.api;

/**
 * A setting is missing, has a value it cannot take, or contradicts another, so no index was opened. The message
 * names the setting as it was given (builder method, {@code fsindex.*} property or {@code FSINDEX_*} environment
 * variable) and what it accepts.
 */
public class FsIndexConfigurationException extends FsIndexException {
    /** @param message which setting is wrong and what it accepts */
    public FsIndexConfigurationException(String message) {
        super(message);
    }

    /**
     * @param message which setting is wrong and what it accepts
     * @param cause   the underlying failure
     */
    public FsIndexConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
