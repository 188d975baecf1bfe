package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresFaultCampaignTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysFaultCampaignTest extends PostgresFaultCampaignTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
