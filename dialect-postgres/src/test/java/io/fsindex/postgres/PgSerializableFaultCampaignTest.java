package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresFaultCampaignTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableFaultCampaignTest extends PostgresFaultCampaignTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
