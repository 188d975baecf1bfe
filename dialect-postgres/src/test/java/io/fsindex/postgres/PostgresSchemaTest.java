package io.fsindex.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.core.FsIndex;
import io.fsindex.core.spi.FsTables;
import io.fsindex.testkit.TestDatabase;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PostgresSchemaTest {
    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    /**
     * Two processes opening a new index at once both create its schema; the one whose CREATE TABLE runs into the
     * other's uncommitted one fails on the catalog's unique index (23505), and must retry (and then find the schema
     * in place) rather than fail to open.
     */
    @Test
    void anIndexOpenedWhileAnotherProcessIsCreatingTheSameSchemaWaitsAndThenUsesIt() throws Exception {
        TestDatabase db = PostgresTestServer.database();
        String prefix = TestDatabase.freshPrefix();
        FsTables t = new FsTables(prefix);
        try (PgSession creator = new PgSession(db, t); PgSession monitor = new PgSession(db, t)) {
            creator.begin();
            for (String statement : script(prefix)) {
                creator.execute(statement);
            }

            Future<FsIndex> opening = executor.submit(() -> db.builder(prefix).build());
            assertThat(monitor.awaitAnyLockWaitOn(prefix, opening))
                    .as("opening the index must wait for the other process's schema creation").isTrue();
            creator.commit();

            try (FsIndex index = opening.get(60, TimeUnit.SECONDS)) {
                assertThat(index.info(1).schemaVersion()).isEqualTo(4);
            }
            assertThat(monitor.queryLong("SELECT count(*) FROM " + t.schemaName())).isEqualTo(1);
        }
    }

    /** The V1 script as separate statements, comment lines dropped. */
    private static List<String> script(String prefix) {
        String sql = new PostgresDialect().schemaScript(1).orElseThrow().replace("${prefix}", prefix);
        String withoutComments = sql.lines().filter(l -> !l.strip().startsWith("--"))
                .collect(Collectors.joining("\n"));
        return Arrays.stream(withoutComments.split(";\\s*(\n|$)")).map(String::strip).filter(s -> !s.isEmpty())
                .toList();
    }
}
