package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.core.FsIndex;
import io.fsindex.core.SchemaScripts;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An index fsindex creates in an empty database has the tables an index created long ago and upgraded through every
 * schema version has, whether the dialect creates them at once ({@code Dialect.createSchemaScript}) or runs each
 * version's script. A dialect's test extends this class and says in {@link #database()} where its database is; one
 * whose engine keeps schema objects the JDBC metadata does not show (checks, triggers, functions) lists them in
 * {@link #engineCatalog}.
 */
public abstract class SchemaCreationConformanceTest extends IndexTest {

    /**
     * The engine's own catalog of what the JDBC metadata leaves out, for the tables whose names start with
     * {@code prefix}, one line per fact, in an order that does not depend on the order things were created in, and
     * with names the engine made up itself (a check's generated name) left out; none by default.
     */
    protected List<String> engineCatalog(Connection c, String prefix) throws SQLException {
        return List.of();
    }

    @Test
    void anIndexCreatedInAnEmptyDatabaseHasTheTablesEveryVersionsScriptLeaves() throws Exception {
        FsIndex created = openIndex();
        String createdPrefix = prefix();
        RawIndex upgraded = indexAtSchemaVersion(SchemaScripts.currentVersion());
        String upgradedPrefix = prefix();

        try (Connection c = upgraded.connect()) {
            List<String> createdCatalog = catalog(c, createdPrefix);
            assertThat(createdCatalog).as("the created index's catalog").anyMatch(f -> f.contains(" index "));
            assertThat(createdCatalog).containsExactlyElementsOf(catalog(c, upgradedPrefix));
        }
        // and fsindex scans into both alike
        Path root = tree("a/b.txt", "c/");
        long added = created.scan(root).added();
        assertThat(added).isPositive();
        assertThat(reopenIndex().scan(root).added()).isEqualTo(added);
    }

    /**
     * fsindex's names are unquoted, so the engine may store a mixed-case prefix as written (MySQL on Linux, SQLite),
     * in lower case (PostgreSQL) or in upper case: an index opened again finds its tables whichever it did.
     */
    @Test
    void anIndexWithAMixedCasePrefixFindsItsTablesWhenOpenedAgain() {
        String prefix = "MixedCase" + TestDatabase.freshPrefix();
        Path root = tree("a/b.txt");
        long added;
        try (FsIndex first = database().builder(prefix).build()) {
            added = first.scan(root).added();
        }
        try (FsIndex again = database().builder(prefix).build()) {
            assertThat(again.lookup(root.resolve("a/b.txt"))).isPresent();
            assertThat(again.scan(root).added()).isZero();
            assertThat(added).isPositive();
        }
    }

    private List<String> catalog(Connection c, String prefix) throws SQLException {
        List<String> all = new ArrayList<>(SchemaCatalog.of(c, prefix));
        for (String fact : engineCatalog(c, prefix)) {
            all.add("engine " + SchemaCatalog.withoutPrefix(fact, prefix));
        }
        all.sort(null);
        return all;
    }
}
