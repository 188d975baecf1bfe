package io.fsindex.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.SchemaException;
import io.fsindex.core.FsIndex;
import io.fsindex.core.SchemaScripts;
import io.fsindex.testkit.RawIndex;
import io.fsindex.testkit.TestDatabase;
import io.fsindex.testkit.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plain-foreign-key mode's schema: what each mode creates, that an index is only opened for writing in the mode
 * it was created in, and that an older index upgrades into either mode.
 */
class PostgresPlainKeysSchemaTest {
    @TempDir
    Path tmp;

    private static final String TRIGGERS = "SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal"
            + " AND tgrelid = '${prefix}files'::regclass";
    private static final String PARENT_KEYS = "SELECT count(*) FROM pg_constraint WHERE contype = 'f'"
            + " AND conrelid = '${prefix}files'::regclass AND confrelid IN ('${prefix}files'::regclass,"
            + " '${prefix}scans'::regclass)";

    @Test
    void eachModeEnforcesTheReferencesItsOwnWay() throws Exception {
        TestDatabase db = PostgresTestServer.database();
        String triggers = TestDatabase.freshPrefix();
        String plain = TestDatabase.freshPrefix();
        db.builder(triggers).build().close();
        PostgresTestServer.plainForeignKeys().builder(plain).build().close();

        RawIndex withTriggers = new RawIndex(db, triggers);
        assertThat(withTriggers.queryLong(TRIGGERS)).isEqualTo(3);
        assertThat(withTriggers.queryLong(PARENT_KEYS)).isZero();
        RawIndex withKeys = new RawIndex(db, plain);
        assertThat(withKeys.queryLong(TRIGGERS)).isZero();
        assertThat(withKeys.queryLong(PARENT_KEYS)).isEqualTo(2);
        assertThat(withKeys.queryLong("SELECT version FROM ${prefix}schema"))
                .isEqualTo(SchemaScripts.currentVersion());
    }

    @Test
    void anIndexOpenedInTheOtherModeFailsAndNamesTheSettingItWasCreatedWith() throws Exception {
        TestDatabase db = PostgresTestServer.database();
        Path root = Files.createDirectories(tmp.resolve("r"));
        Files.writeString(root.resolve("f"), "x");
        String triggers = TestDatabase.freshPrefix();
        String plain = TestDatabase.freshPrefix();
        try (FsIndex index = db.builder(triggers).build()) {
            index.scan(root);
        }
        try (FsIndex index = PostgresTestServer.plainForeignKeys().builder(plain).build()) {
            index.scan(root);
        }

        assertThatThrownBy(() -> db.builder(triggers).plainForeignKeys(true).build())
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("were created with PostgreSQL's statement triggers")
                .hasMessageContaining("open it with plainForeignKeys off");
        assertThatThrownBy(() -> db.builder(plain).build())
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("were created with plain foreign keys")
                .hasMessageContaining("FSINDEX_PLAIN_FOREIGN_KEYS=true");
        assertThatThrownBy(() -> db.builder(plain).schemaMode(io.fsindex.core.SchemaMode.VALIDATE).build())
                .isInstanceOf(SchemaException.class);

        // Nothing was changed, and each still opens in its own mode; a reader opens either.
        assertThat(new RawIndex(db, triggers).queryLong(TRIGGERS)).isEqualTo(3);
        try (FsIndex index = PostgresTestServer.plainForeignKeys().builder(plain).build()) {
            assertThat(Trees.inIndex(index, root)).containsKey("f");
        }
        try (var reader = db.builder(plain).buildReader()) {
            assertThat(reader.lookup(root.resolve("f"))).isPresent();
        }
    }

    /** An index left at version 2 (before the triggers) is upgraded into the mode it is opened in. */
    @Test
    void aVersion2IndexUpgradesIntoEitherMode() throws Exception {
        TestDatabase db = PostgresTestServer.database();
        String toTriggers = TestDatabase.freshPrefix();
        String toPlain = TestDatabase.freshPrefix();
        SchemaScripts.apply(db.builder(toTriggers), 1, 2);
        SchemaScripts.apply(db.builder(toPlain), 1, 2);

        db.builder(toTriggers).build().close();
        PostgresTestServer.plainForeignKeys().builder(toPlain).build().close();

        assertThat(new RawIndex(db, toTriggers).queryLong(TRIGGERS)).isEqualTo(3);
        assertThat(new RawIndex(db, toPlain).queryLong(TRIGGERS)).isZero();
        assertThat(new RawIndex(db, toPlain).queryLong(PARENT_KEYS)).isEqualTo(2);
    }
}
