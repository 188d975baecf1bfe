package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresSweepRaceTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysSweepRaceTest extends PostgresSweepRaceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
