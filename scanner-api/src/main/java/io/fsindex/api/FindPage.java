package io.fsindex.api;

import java.util.List;

/**
 * One page of {@link IndexReader#find} results, ordered by entry id.
 *
 * @param entries the matching entries of this page
 * @param cursor  the id to continue after ({@link FileQuery#after(long)}) for the next page
 * @param more    false once no entry after {@code cursor} matched when the page was read
 */
public record FindPage(List<FileEntry> entries, long cursor, boolean more) {
    /**
     * Copies the list.
     *
     * @param entries the matching entries of this page
     * @param cursor  the id to continue after for the next page
     * @param more    false once no entry after {@code cursor} matched when the page was read
     */
    public FindPage {
        entries = List.copyOf(entries);
    }
}
