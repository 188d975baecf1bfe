package io.fsindex.core;

import io.fsindex.core.internal.Database;
import io.fsindex.core.internal.IndexInternals;
import io.fsindex.core.internal.Statements;
import java.sql.Connection;
import java.sql.SQLException;

/** An index's plumbing, as {@link IndexInternals} hands it to the test kit. */
final class FsIndexInternals implements IndexInternals.Parts {
    private final FsIndex index;

    FsIndexInternals(FsIndex index) {
        this.index = index;
    }

    @Override
    public Database db() {
        return index.db;
    }

    @Override
    public Statements statements() {
        return index.statements.get();
    }

    @Override
    public long insertScanRow(Connection c, String root) throws SQLException {
        return index.lifecycle.start(c, root);
    }

    @Override
    public void listingPartEntries(int entries) {
        index.launcher.listingPartEntries(entries);
    }
}
