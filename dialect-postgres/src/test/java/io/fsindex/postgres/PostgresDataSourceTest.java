package io.fsindex.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.core.FsIndex;
import io.fsindex.core.spi.FsTables;
import io.fsindex.testkit.TestDatabase;
import io.fsindex.testkit.Trees;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PostgresDataSourceTest {
    @TempDir
    Path tmp;

    /** Given only a URL, fsindex pools connections itself (HikariCP) and closes the pool, and every connection in
     *  it, when the index is closed; an application's server must not collect leaked sessions. */
    @Test
    void theIndexClosesThePoolItOpenedForAUrl() throws Exception {
        TestDatabase shared = PostgresTestServer.database();
        String application = "fsindex-pool-test-" + ProcessHandle.current().pid();
        TestDatabase db = new TestDatabase(shared.jdbcUrl() + (shared.jdbcUrl().contains("?") ? "&" : "?")
                + "ApplicationName=" + application, shared.user(), shared.password());
        String prefix = TestDatabase.freshPrefix();
        Path root = tmp.resolve("tree");
        Trees.create(root, "a/", "a/f.txt");

        try (PgSession monitor = new PgSession(shared, new FsTables(prefix))) {
            String sessions = "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?";
            FsIndex index = db.builder(prefix).build();
            index.scan(root);
            assertThat(index.databaseName()).isEqualTo("PostgreSQL");
            assertThat(monitor.queryLong(sessions, application)).isPositive();

            index.close();
            // A backend leaves pg_stat_activity shortly after its client disconnects; wait for that, boundedly.
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (monitor.queryLong(sessions, application) > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(monitor.queryLong(sessions, application)).isZero();
        }
    }
}
