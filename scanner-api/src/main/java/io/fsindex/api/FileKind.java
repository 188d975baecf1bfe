package io.fsindex.api;

/** What kind of filesystem object an entry is; stored as its name, so the order of constants is free to change. */
public enum FileKind {
    /** A regular file. */
    FILE,
    /** A directory. */
    DIRECTORY,
    /** A symbolic link, recorded with its target and not followed unless the scan asks for it. */
    SYMLINK,
    /** A named pipe; recorded, never opened. */
    FIFO,
    /** A Unix domain socket; recorded, never opened. */
    SOCKET,
    /** A character device; recorded, never opened. */
    CHAR_DEVICE,
    /** A block device; recorded, never opened. */
    BLOCK_DEVICE,
    /** Anything the platform reports that is none of the above. */
    OTHER
}
