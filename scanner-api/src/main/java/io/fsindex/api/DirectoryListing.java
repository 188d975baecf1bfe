package io.fsindex.api;

import java.util.List;

/**
 * The complete listing of one directory as a {@link Walker} read it.
 *
 * @param entries  every entry that could be read; an entry that vanished between listing and reading its attributes
 *                 is simply absent, because it no longer exists
 * @param problems entries that exist but could not be recorded faithfully (an undecodable name, unreadable
 *                 attributes); the scan reports them and keeps whatever the index already holds for them
 */
public record DirectoryListing(List<WalkedEntry> entries, List<ScanError> problems) {
    /**
     * Copies both lists, so the listing cannot change afterwards.
     *
     * @param entries  every entry that could be read; an entry that vanished between listing and reading its
     *                 attributes is simply absent, because it no longer exists
     * @param problems entries that exist but could not be recorded faithfully (an undecodable name, unreadable
     *                 attributes); the scan reports them and keeps whatever the index already holds for them
     */
    public DirectoryListing {
        entries = List.copyOf(entries);
        problems = List.copyOf(problems);
    }
}
