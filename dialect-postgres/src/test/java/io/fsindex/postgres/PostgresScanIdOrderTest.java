package io.fsindex.postgres;

import io.fsindex.testkit.RawIndex;
import io.fsindex.testkit.ScanIdOrderConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.sql.SQLException;

/** Scan ids in start order on a real PostgreSQL server, against its identity sequence cached per connection. */
class PostgresScanIdOrderTest extends ScanIdOrderConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }

    /** Each session then takes 20 values at a time, as YugabyteDB's sequences do by default (there per node). */
    @Override
    protected boolean cacheEngineScanIds(RawIndex raw) throws SQLException {
        raw.update("ALTER TABLE ${prefix}scans ALTER COLUMN id SET CACHE 20");
        return true;
    }
}
