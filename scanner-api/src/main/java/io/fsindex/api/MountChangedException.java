package io.fsindex.api;

/**
 * A scan refused because its root, or a directory above it that was a mount point, now sits on another device than
 * when it was last scanned: most likely the disk is not mounted and the bare mount point shows through. Nothing was
 * written or deleted. Mount the disk again, or, if the change is real, scan with
 * {@link ScanOptions#withAcceptMountChanges(boolean)}.
 */
public class MountChangedException extends ScanFailedException {
    /**
     * @param message which directory moved from which device to which
     */
    public MountChangedException(String message) {
        super(message, null);
    }

    /**
     * @param message which directory moved from which device to which
     * @param cause   the same refusal where it was first thrown (on a scan's own thread)
     */
    public MountChangedException(String message, Throwable cause) {
        super(message, cause);
    }
}
