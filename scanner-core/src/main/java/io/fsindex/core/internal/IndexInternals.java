package io.fsindex.core.internal;

import io.fsindex.api.IndexReader;
import io.fsindex.core.FsIndex;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.function.Function;

/**
 * Reaches an open {@link FsIndex}'s database plumbing from the other packages of scanner-core and from the test kit's
 * conformance tests, which drive the write protocol directly; {@code FsIndex} installs the accessor when it loads, so
 * none of this shows on its public API.
 */
public final class IndexInternals {
    /** What one open index hands to its internals. */
    public interface Parts {
        /** The index's database. */
        Database db();

        /** The statements rendered for its dialect and tables. */
        Statements statements();

        /** Records a new running scan of {@code root} on {@code c} and returns its id. */
        long insertScanRow(Connection c, String root) throws SQLException;

        /**
         * Makes the scans this index starts from now on list and apply a huge directory in parts of {@code entries}
         * (by default {@link io.fsindex.core.scan.Scan#PART_ENTRIES}), so tests can make parts small.
         */
        void listingPartEntries(int entries);
    }

    private static volatile Function<FsIndex, Parts> access;
    private static volatile Function<IndexReader, FsIndex> indexOfReader;

    private IndexInternals() {
    }

    /**
     * Called once by {@link FsIndex} as it loads, with the accessor of an index's parts and the index behind a
     * reader.
     */
    public static void install(Function<FsIndex, Parts> accessor, Function<IndexReader, FsIndex> indexOf) {
        access = Objects.requireNonNull(accessor, "accessor");
        indexOfReader = Objects.requireNonNull(indexOf, "indexOf");
    }

    /** The internals of {@code index}. */
    public static Parts of(FsIndex index) {
        return access.apply(index);
    }

    /** The internals of the index behind {@code reader}: an {@link FsIndex}, or what a builder's buildReader gave. */
    public static Parts ofReader(IndexReader reader) {
        return of(indexOfReader.apply(reader));
    }
}
