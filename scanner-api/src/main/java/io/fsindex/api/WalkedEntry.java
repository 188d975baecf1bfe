package io.fsindex.api;

import java.util.Objects;

/**
 * One entry of a directory listing.
 *
 * @param name the entry's name, exactly as the filesystem gave it (never trimmed or normalised)
 * @param stat what was read about it, or {@code null} if the entry exists but its attributes could not be read
 *             (for example in a directory that may be listed but not searched); the index then keeps the entry's
 *             row exactly as it was
 */
public record WalkedEntry(String name, FileStat stat) {
    /**
     * Checks that the name is given.
     *
     * @param name the entry's name, exactly as the filesystem gave it (never trimmed or normalised)
     * @param stat what was read about it, or {@code null} if the entry exists but its attributes could not be read
     *             (for example in a directory that may be listed but not searched); the index then keeps the entry's
     *             row exactly as it was
     */
    public WalkedEntry {
        Objects.requireNonNull(name, "name");
    }

    /** {@return true if the entry's attributes were read} */
    public boolean isReadable() {
        return stat != null;
    }
}
