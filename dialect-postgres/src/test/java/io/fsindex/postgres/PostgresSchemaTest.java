package io.fsindex.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.SchemaException;
import io.fsindex.core.FsIndex;
import io.fsindex.core.schema.SchemaManager;
import io.fsindex.core.spi.FsTables;
import io.fsindex.testkit.RawIndex;
import io.fsindex.testkit.TestDatabase;
import java.time.Duration;
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
                assertThat(index.info(1).schemaVersion()).isEqualTo(SchemaManager.CURRENT_VERSION);
            }
            assertThat(monitor.queryLong("SELECT count(*) FROM " + t.schemaName())).isEqualTo(1);
        }
    }

    /**
     * A schema statement that fails because its name is taken for good (here by an index of an application's table;
     * a prefix cut short once did the same) is not a race: opening fails at once with PostgreSQL's own error and the
     * statement, instead of retrying "relation already exists" until the retry timeout and then calling the database
     * busy.
     */
    @Test
    void aSchemaStatementThatFailsForGoodFailsTheOpeningAtOnceWithTheEnginesError() throws Exception {
        TestDatabase db = PostgresTestServer.database();
        String prefix = TestDatabase.freshPrefix();
        RawIndex raw = new RawIndex(db, prefix);
        raw.update("CREATE TABLE ${prefix}application (x INTEGER)");
        raw.update("CREATE INDEX ${prefix}files_stale ON ${prefix}application (x)");

        assertThatThrownBy(() -> db.builder(prefix).retryTimeout(Duration.ofMinutes(1)).build())
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("cannot create fsindex's tables " + prefix + "* in the PostgreSQL database")
                .hasMessageContaining("relation \"" + prefix + "files_stale\" already exists")
                .hasMessageContaining("CREATE INDEX " + prefix + "files_stale")
                .hasMessageNotContaining("busy");
        assertThat(raw.queryLongOr("SELECT count(*) FROM ${prefix}files", -1)).as("nothing left behind").isEqualTo(-1);
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
