package io.fsindex.core.write;

import io.fsindex.api.ScanListener;
import io.fsindex.core.FsIndex;
import io.fsindex.core.feed.FeedSettings;
import io.fsindex.core.internal.IndexInternals;
import io.fsindex.core.scan.NioWalker;
import io.fsindex.core.scan.Scan;
import io.fsindex.testkit.IndexTest;
import io.fsindex.testkit.RawIndex;
import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.Future;

/**
 * What the staged sink suites share: a sink on the index's own database, statements and scan rows (hence this package),
 * and a wait until the database under test shows transactions waiting for a row lock, for an engine that has them.
 */
public abstract class SqlFileSinkFixture extends IndexTest {

    /**
     * A query counting the transactions that wait for a row lock while running a statement that names {@code
     * prefix}'s tables, or null for an engine without row locks (SQLite: a second writer waits for the whole
     * database before its transaction begins, so no statement of it can run between another's).
     */
    protected String lockWaitsQuery(String prefix) {
        return null;
    }

    SqlFileSink sink(FsIndex index, Connection c, long scan) throws Exception {
        return new SqlFileSink(IndexInternals.of(index).db(), IndexInternals.of(index).statements(), c, scan, new NioWalker(), new ScanListener() {
        }, FeedSettings.DEFAULTS, false, Scan.PART_ENTRIES);
    }

    boolean awaitLockWait(String query, Future<?> work) throws Exception {
        return awaitLockWaits(query, 1, work);
    }

    /** Waits until {@code query} counts at least {@code count} transactions waiting for a lock, while work runs. */
    boolean awaitLockWaits(String query, int count, Future<?> work) throws Exception {
        RawIndex raw = new RawIndex(database(), prefix());
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline && !work.isDone()) {
            if (raw.queryLong(query) >= count) {
                return true;
            }
            // InnoDB refreshes its INFORMATION_SCHEMA lock tables only when they were last read over 0.1 s ago:
            // polled more often, they would show the same first picture for ever.
            Thread.sleep(150);
        }
        return false;
    }
}
