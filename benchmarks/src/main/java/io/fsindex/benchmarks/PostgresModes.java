package io.fsindex.benchmarks;

import io.fsindex.core.FsIndex;
import io.fsindex.core.internal.IndexInternals;

/**
 * The modes the modes scenario compares on PostgreSQL: the default (statement triggers, READ COMMITTED), plain
 * foreign keys, SERIALIZABLE writes, and both (the shape CockroachDB needs).
 */
enum PostgresModes {
    DEFAULT("triggers, READ COMMITTED", false, false),
    PLAIN_KEYS("plain foreign keys, READ COMMITTED", true, false),
    SERIALIZABLE("triggers, SERIALIZABLE", false, true),
    BOTH("plain foreign keys, SERIALIZABLE", true, true);

    final String label;
    private final boolean plainForeignKeys;
    private final boolean serializable;

    PostgresModes(String label, boolean plainForeignKeys, boolean serializable) {
        this.label = label;
        this.plainForeignKeys = plainForeignKeys;
        this.serializable = serializable;
    }

    FsIndex.Builder apply(FsIndex.Builder b) {
        return b.plainForeignKeys(plainForeignKeys).serializableWrites(serializable);
    }

    /** Groups of listings the index's scans applied in smaller transactions because theirs kept conflicting. */
    static long groupSplits(FsIndex index) {
        return IndexInternals.of(index).db().groupSplits();
    }
}
