package io.fsindex.postgres;

/** The query suite on Postgres with the name search index on: results must be those of {@link PostgresQueryTest}. */
class PostgresQueryIndexedTest extends PostgresQueryTest {
    @Override
    protected boolean nameSearchIndex() {
        return true;
    }
}
