package io.fsindex.sqlite;

/** The query suite on Sqlite with the name search index on: results must be those of {@link SqliteQueryTest}. */
class SqliteQueryIndexedTest extends SqliteQueryTest {
    @Override
    protected boolean nameSearchIndex() {
        return true;
    }
}
