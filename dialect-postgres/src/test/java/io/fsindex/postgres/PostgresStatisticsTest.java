package io.fsindex.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.core.FsIndex;
import io.fsindex.core.spi.FsTables;
import io.fsindex.testkit.IndexTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A scan that adds many rows leaves the planner statistics the next scan's reads are planned with, and the new rows
 * vacuumed, so that the next reads neither set their hint bits one page at a time nor visit the heap for index-only
 * scans.
 */
class PostgresStatisticsTest extends IndexTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }

    @Test
    void aScanAddingTenThousandRowsVacuumsAndAnalyzesTheFilesTable() throws Exception {
        Path root = tree("small/", "small/a.txt");
        FsIndex index = openIndex();
        index.scan(root);
        try (PgSession session = new PgSession(database(), new FsTables(prefix()))) {
            session.execute("ALTER TABLE " + prefix() + "files SET (autovacuum_enabled = false)");
            assertThat(reltuples(session)).as("a few rows: not analyzed").isLessThan(0);
            assertThat(vacuumed(session)).as("a few rows: not vacuumed").isFalse();

            for (int d = 0; d < 50; d++) {
                Path dir = Files.createDirectories(root.resolve("big/d" + d));
                for (int f = 0; f < 200; f++) {
                    Files.createFile(dir.resolve("f" + f));
                }
            }
            index.scan(root);

            assertThat(reltuples(session)).isGreaterThan(10_000);
            assertThat(vacuumed(session)).isTrue();
        }
    }

    /** True once the files table has been vacuumed by a command (autovacuum is off for it here). */
    private boolean vacuumed(PgSession session) throws Exception {
        return session.queryLong("SELECT count(*) FROM pg_stat_user_tables WHERE relid = ?::regclass"
                + " AND last_vacuum IS NOT NULL", prefix() + "files") == 1;
    }

    /** What PostgreSQL's planner believes the table holds; -1 until the table is first analyzed. */
    private long reltuples(PgSession session) throws Exception {
        return session.queryLong("SELECT reltuples::bigint FROM pg_class WHERE oid = ?::regclass", prefix() + "files");
    }
}
