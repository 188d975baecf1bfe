package io.fsindex.sqlite;

import io.fsindex.testkit.StoreContractConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on an SQLite file. */
class SqliteStoreContractTest extends StoreContractConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("contract.db"), null, null);
    }
}
