package io.fsindex.sqlite;

import io.fsindex.testkit.RawIndex;
import io.fsindex.testkit.ScanIdOrderConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Scan ids in start order on SQLite. */
class SqliteScanIdOrderTest extends ScanIdOrderConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("scan-ids.db"), null, null);
    }

    /** AUTOINCREMENT reads one counter in the one write transaction SQLite runs at a time: nothing to cache. */
    @Override
    protected boolean cacheEngineScanIds(RawIndex raw) {
        return false;
    }
}
