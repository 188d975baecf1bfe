package io.fsindex.sqlite;

import io.fsindex.testkit.FaultCampaignConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The fault campaign on SQLite: SIGKILLed scanning processes and concurrent processes under churn. */
class SqliteFaultCampaignTest extends FaultCampaignConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("faults.db"), null, null);
    }
}
