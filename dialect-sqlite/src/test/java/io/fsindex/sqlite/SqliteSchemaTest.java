package io.fsindex.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.FsIndexConfigurationException;
import io.fsindex.api.FsIndexException;
import io.fsindex.api.SchemaException;
import io.fsindex.core.FsIndex;
import io.fsindex.core.SchemaMode;
import io.fsindex.core.schema.SchemaManager;
import io.fsindex.testkit.ChildJvm;
import io.fsindex.testkit.Trees;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.sqlite.SQLiteDataSource;

/**
 * The schema and dialect-selection contract on a real SQLite file: what fsindex creates, what it refuses to touch and
 * how it says so, and how it finds the dialect for a URL.
 */
class SqliteSchemaTest {
    @TempDir
    Path tmp;

    private String url() {
        return "jdbc:sqlite:" + tmp.resolve("index.db");
    }

    private FsIndex open(SchemaMode mode) {
        return FsIndex.builder().jdbcUrl(url()).schemaMode(mode).build();
    }

    @Test
    void aFreshDatabaseGetsTheCurrentSchemaVersionAndItsTables() throws Exception {
        try (FsIndex index = open(SchemaMode.MIGRATE)) {
            assertThat(index.info(0).schemaVersion()).isEqualTo(SchemaManager.CURRENT_VERSION);
            assertThat(index.databaseName()).isEqualTo("SQLite");
        }
        assertThat(RawSqlite.queryLong(url(), "SELECT version FROM fsindex_schema"))
                .isEqualTo(SchemaManager.CURRENT_VERSION);
        assertThat(tableNames(url())).contains("fsindex_files", "fsindex_scans", "fsindex_schema", "fsindex_contents",
                "fsindex_changes", "fsindex_feed");
    }

    /** SQLite bumps schema_version on every DDL statement, so an unchanged value proves no DDL ran on reopening. */
    @Test
    void reopeningAnUpToDateDatabaseRunsNoDdl() throws Exception {
        open(SchemaMode.MIGRATE).close();
        long schemaVersion = RawSqlite.queryLong(url(), "PRAGMA schema_version");

        Path root = tmp.resolve("tree");
        Trees.create(root, "./", "f");
        try (FsIndex index = open(SchemaMode.MIGRATE)) {
            index.scan(root);
        }
        open(SchemaMode.VALIDATE).close();

        assertThat(RawSqlite.queryLong(url(), "PRAGMA schema_version")).isEqualTo(schemaVersion);
        assertThat(RawSqlite.queryLong(url(), "SELECT COUNT(*) FROM fsindex_schema")).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(SchemaMode.class)
    void aDatabaseFromANewerFsindexIsRefusedAndLeftUntouched(SchemaMode mode) throws Exception {
        open(SchemaMode.MIGRATE).close();
        RawSqlite.execute(url(), "UPDATE fsindex_schema SET version = 99");
        String before = dump(url());

        assertThatThrownBy(() -> open(mode))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("written by a newer fsindex")
                .hasMessageContaining("schema version 99")
                .hasMessageContaining("nothing was changed");
        assertThat(dump(url())).isEqualTo(before);
    }

    @Test
    void tablesLackingAColumnAreRefusedNamingTheColumn() throws Exception {
        RawSqlite.execute(url(),
                "CREATE TABLE fsindex_scans (id INTEGER PRIMARY KEY AUTOINCREMENT, root TEXT, state TEXT,"
                        + " started_at INTEGER, finished_at INTEGER, added INTEGER, updated INTEGER, deleted INTEGER,"
                        + " errors INTEGER, message TEXT)",
                "CREATE TABLE fsindex_files (id INTEGER PRIMARY KEY AUTOINCREMENT, parent INTEGER, name TEXT,"
                        + " kind TEXT, size INTEGER, mtime INTEGER, link_target TEXT, scan_id INTEGER, stale INTEGER)",
                "CREATE TABLE fsindex_schema (version INTEGER)",
                "INSERT INTO fsindex_schema (version) VALUES (1)");
        String before = dump(url());

        // MIGRATE checks the version-1 tables before upgrading them; VALIDATE refuses the old version outright.
        assertThatThrownBy(() -> open(SchemaMode.MIGRATE))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("fsindex_files lacks column(s) listed_by");
        assertThatThrownBy(() -> open(SchemaMode.VALIDATE))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("holds fsindex schema version 1 but this fsindex needs version "
                        + SchemaManager.CURRENT_VERSION);
        assertThat(dump(url())).isEqualTo(before);
    }

    /** A leftover table of a later version (here the feed's) is refused by name, not left to fail the migration. */
    @Test
    void anyFsindexTableWithoutVersionRecordIsNamed() throws Exception {
        RawSqlite.execute(url(), "CREATE TABLE fsindex_changes (seq INTEGER PRIMARY KEY)");

        assertThatThrownBy(() -> open(SchemaMode.MIGRATE))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("found table fsindex_changes but no fsindex_schema version record");
        assertThat(tableNames(url())).containsExactly("fsindex_changes");
    }

    @Test
    void tablesWithTheNamesButNoVersionRecordAreNotTouched() throws Exception {
        RawSqlite.execute(url(), "CREATE TABLE fsindex_files (id INTEGER PRIMARY KEY, something_else TEXT)");

        assertThatThrownBy(() -> open(SchemaMode.MIGRATE))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("found table fsindex_files but no fsindex_schema version record");
        assertThat(tableNames(url())).containsExactly("fsindex_files");
    }

    @Test
    void validateOnAnEmptyDatabaseSaysToApplyTheScriptsAndCreatesNothing() throws Exception {
        assertThatThrownBy(() -> open(SchemaMode.VALIDATE))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("schema mode is VALIDATE: apply fsindex's schema scripts first");
        assertThat(tableNames(url())).isEmpty();
    }

    /**
     * The "run your own Flyway" path: the application applies the shipped script itself (with its prefix put in),
     * then opens with VALIDATE, which only reads.
     */
    @Test
    void validatePassesAfterTheShippedScriptIsAppliedByHand() throws Exception {
        applyScripts("app_", 1, SchemaManager.CURRENT_VERSION);
        long schemaVersion = RawSqlite.queryLong(url(), "PRAGMA schema_version");

        Path root = tmp.resolve("tree");
        Trees.create(root, "./", "a/", "a/x");
        try (FsIndex index = FsIndex.builder().jdbcUrl(url()).tablePrefix("app_").schemaMode(SchemaMode.VALIDATE)
                .build()) {
            index.scan(root);
            assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
        }
        assertThat(RawSqlite.queryLong(url(), "PRAGMA schema_version")).isEqualTo(schemaVersion);
    }

    /** A database written by a version-1 fsindex is upgraded in place: its rows, ids and scans are kept. */
    @Test
    void aVersion1DatabaseIsMigratedKeepingItsRows() throws Exception {
        applyScripts("fsindex_", 1, 1);
        Path root = tmp.resolve("tree");
        Trees.create(root, "./", "a/", "a/x");
        RawSqlite.execute(url(),
                "INSERT INTO fsindex_scans (id, root, state, started_at) VALUES (1, '/', 'COMPLETED', 1)",
                "INSERT INTO fsindex_files (id, parent, name, kind, scan_id) VALUES (7, NULL, 'kept', 'FILE', 1)");

        try (FsIndex index = open(SchemaMode.MIGRATE)) {
            assertThat(index.info(0).schemaVersion()).isEqualTo(SchemaManager.CURRENT_VERSION);
            index.scan(root);
            assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
        }
        assertThat(RawSqlite.queryLong(url(), "SELECT id FROM fsindex_files WHERE name = 'kept'")).isEqualTo(7);
        assertThat(RawSqlite.queryLong(url(), "SELECT last_seq FROM fsindex_feed")).isNotNegative();
    }

    private void applyScripts(String prefix, int from, int to) throws Exception {
        try (Connection c = RawSqlite.connect(url()); Statement s = c.createStatement()) {
            for (int v = from; v <= to; v++) {
                String script;
                try (InputStream in = SqliteDialect.class.getResourceAsStream("schema/V" + v + ".sql")) {
                    script = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("${prefix}", prefix);
                }
                for (String sql : statementsOf(script)) {
                    s.execute(sql);
                }
            }
        }
    }

    /** BEGIN IMMEDIATE around "read the version, run the DDL" makes concurrent first opens take turns. */
    @Test
    void threadsMigratingOneFreshFileAtOnceAllSucceed() throws Exception {
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> opens = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                opens.add(pool.submit(() -> {
                    start.await();
                    open(SchemaMode.MIGRATE).close();
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : opens) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(RawSqlite.queryLong(url(), "SELECT COUNT(*) FROM fsindex_schema")).isEqualTo(1);
    }

    @Test
    void processesMigratingOneFreshFileAtOnceAllSucceed() throws Exception {
        Properties p = new Properties();
        p.setProperty("fsindex.url", url());
        ChildJvm children = new ChildJvm(tmp, p);
        try {
            for (int i = 0; i < 3; i++) {
                children.start("opener" + i, tmp, 0);
            }
            children.releaseWhenAllReady();
            children.assertAllSucceed();
        } finally {
            children.destroyAll();
        }
        assertThat(RawSqlite.queryLong(url(), "SELECT COUNT(*) FROM fsindex_schema")).isEqualTo(1);
        assertThat(RawSqlite.queryLong(url(), "SELECT version FROM fsindex_schema"))
                .isEqualTo(SchemaManager.CURRENT_VERSION);
    }

    @Test
    void aUrlNoDialectServesIsRefusedNamingTheUrlAndTheDialectsFound() {
        assertThatThrownBy(() -> FsIndex.builder().jdbcUrl("jdbc:foo:bar").build())
                .isInstanceOf(FsIndexException.class)
                .hasMessageContaining("'jdbc:foo:bar'")
                .hasMessageContaining("SQLite (io.fsindex.sqlite.SqliteDialect)");
    }

    @Test
    void aPasswordInAnUnservedUrlIsNotRepeated() {
        assertThatThrownBy(() -> FsIndex.builder().jdbcUrl("jdbc:foo://host/db?user=u&password=hunter2").build())
                .isInstanceOf(FsIndexException.class)
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void anExplicitDialectIsUsedWithAUrlOrADataSource() throws Exception {
        Path root = tmp.resolve("tree");
        Trees.create(root, "./", "f");
        try (FsIndex index = FsIndex.builder().dialect(new SqliteDialect()).jdbcUrl(url()).build()) {
            index.scan(root);
            assertThat(index.databaseName()).isEqualTo("SQLite");
        }
        SQLiteDataSource ds = new SQLiteDataSource();
        ds.setUrl(url());
        try (FsIndex index = FsIndex.builder().dialect(new SqliteDialect()).dataSource(ds).build()) {
            assertThat(index.lookup(root.resolve("f"))).isPresent();
        }
    }

    @Test
    void propertiesOpenAnIndexAndAnUnknownFsindexKeyIsRefusedByName() {
        Properties p = new Properties();
        p.setProperty("fsindex.url", url());
        p.setProperty("fsindex.tablePrefix", "props_");
        p.setProperty("fsindex.schemaMode", "migrate");
        p.setProperty("fsindex.retryTimeoutSeconds", "5");
        p.setProperty("unrelated.key", "is ignored");
        FsIndex.fromProperties(p).close();
        assertThat(tableNames(url())).contains("props_files");

        p.setProperty("fsindex.tablePrefx", "typo_");
        assertThatThrownBy(() -> FsIndex.fromProperties(p))
                .isInstanceOf(FsIndexConfigurationException.class)
                .hasMessageContaining("unknown property fsindex.tablePrefx")
                .hasMessageContaining("fsindex.tablePrefix");
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc:sqlite::memory:", "jdbc:sqlite:file::memory:?cache=shared",
            "jdbc:sqlite:file:mem1?mode=memory&cache=shared", "jdbc:sqlite:"})
    void inMemoryDatabasesAreRefusedWithTheReason(String memoryUrl) {
        assertThatThrownBy(() -> FsIndex.builder().jdbcUrl(memoryUrl).build())
                .isInstanceOf(FsIndexException.class)
                .hasMessageContaining("needs an SQLite database file, not an in-memory or temporary one")
                .hasMessageContaining("each such connection is a separate, empty database");
    }

    @Test
    void anInMemoryDataSourceIsRefusedToo() {
        SQLiteDataSource ds = new SQLiteDataSource();
        ds.setUrl("jdbc:sqlite::memory:");
        assertThatThrownBy(() -> FsIndex.builder().dataSource(ds).build())
                .isInstanceOf(FsIndexException.class)
                .hasMessageContaining("not an in-memory or temporary one");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1st_", "with-dash_", "with space_", "x;drop table y;--", "\"quoted\"", "ünï_"})
    void tablePrefixesThatAreNotPlainIdentifiersAreRefused(String prefix) {
        assertThatThrownBy(() -> FsIndex.builder().tablePrefix(prefix))
                .isInstanceOf(FsIndexConfigurationException.class)
                .hasMessageContaining("table prefix must be letters, digits and underscores");
        Properties p = new Properties();
        p.setProperty("fsindex.url", url());
        p.setProperty("fsindex.tablePrefix", prefix);
        assertThatThrownBy(() -> FsIndex.fromProperties(p)).isInstanceOf(FsIndexConfigurationException.class);
        assertThat(tableNames(url())).isEmpty();
    }

    /** Two prefixes are two independent indexes in one file; a mixed-case prefix reopens like any other. */
    @Test
    void prefixesKeepIndexesApartAndMayBeMixedCase() throws Exception {
        Path root = tmp.resolve("tree");
        Trees.create(root, "./", "f");
        try (FsIndex first = FsIndex.builder().jdbcUrl(url()).tablePrefix("MyApp_").build();
             FsIndex second = FsIndex.builder().jdbcUrl(url()).tablePrefix("_other").build()) {
            first.scan(root);
            assertThat(first.lookup(root.resolve("f"))).isPresent();
            assertThat(second.lookup(root.resolve("f"))).isEmpty();
        }
        try (FsIndex reopened = FsIndex.builder().jdbcUrl(url()).tablePrefix("MyApp_").build()) {
            assertThat(reopened.lookup(root.resolve("f"))).isPresent();
        }
        assertThat(tableNames(url())).contains("MyApp_files", "_otherfiles");
    }

    /** A script split as an application's migration tool would: statements end with ';' at a line's end. */
    static List<String> statementsOf(String script) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : script.split("\n")) {
            if (line.strip().startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (line.strip().endsWith(";")) {
                out.add(current.toString());
                current.setLength(0);
            }
        }
        return out;
    }

    private static List<String> tableNames(String url) {
        try (Connection c = RawSqlite.connect(url); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'"
                     + " AND name NOT LIKE 'sqlite_%' ORDER BY name")) {
            List<String> names = new ArrayList<>();
            while (rs.next()) {
                names.add(rs.getString(1));
            }
            return names;
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    /** Everything in the file that a change could touch: the schema objects and every row of every table. */
    private static String dump(String url) throws SQLException {
        StringBuilder out = new StringBuilder();
        try (Connection c = RawSqlite.connect(url); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT type, name, sql FROM sqlite_master ORDER BY name")) {
                while (rs.next()) {
                    out.append(rs.getString(1)).append(' ').append(rs.getString(2)).append(": ")
                            .append(rs.getString(3)).append('\n');
                }
            }
            try (ResultSet rs = s.executeQuery("PRAGMA schema_version")) {
                rs.next();
                out.append("schema_version ").append(rs.getLong(1)).append('\n');
            }
            for (String table : tableNames(url)) {
                try (Statement q = c.createStatement(); ResultSet rs = q.executeQuery("SELECT * FROM " + table)) {
                    int columns = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        out.append(table).append(':');
                        for (int i = 1; i <= columns; i++) {
                            out.append(' ').append(rs.getString(i));
                        }
                        out.append('\n');
                    }
                }
            }
        }
        return out.toString();
    }
}
