package io.fsindex.core.schema;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How a dialect's DDL script is split into the statements fsindex executes one by one. */
class SchemaManagerTest {

    @Test
    void aSemicolonAtALinesEndEndsAStatementWhichKeepsItsLines() {
        String script = """
                CREATE TABLE ${prefix}a (
                    id INTEGER PRIMARY KEY,
                    note TEXT CHECK (note <> ';')
                );
                CREATE INDEX ${prefix}a_note ON ${prefix}a (note);
                """;
        assertThat(SchemaManager.statements(script, "p_")).containsExactly(
                "CREATE TABLE p_a (\n    id INTEGER PRIMARY KEY,\n    note TEXT CHECK (note <> ';')\n)",
                "CREATE INDEX p_a_note ON p_a (note)");
    }

    @Test
    void commentLinesAndBlankLinesAreDropped() {
        String script = """
                -- a header comment; with a semicolon;

                CREATE TABLE t (x INTEGER);
                    -- an indented comment
                INSERT INTO t (x) VALUES (1);
                """;
        assertThat(SchemaManager.statements(script, "")).containsExactly(
                "CREATE TABLE t (x INTEGER)", "INSERT INTO t (x) VALUES (1)");
    }

    @Test
    void aLastStatementWithoutASemicolonIsKept() {
        assertThat(SchemaManager.statements("CREATE TABLE t (x INTEGER);\nINSERT INTO t VALUES (1)", ""))
                .containsExactly("CREATE TABLE t (x INTEGER)", "INSERT INTO t VALUES (1)");
    }

    @Test
    void windowsLineEndingsSplitTheSameWay() {
        assertThat(SchemaManager.statements("CREATE TABLE t (x INTEGER);\r\nINSERT INTO t VALUES (1);\r\n", ""))
                .containsExactly("CREATE TABLE t (x INTEGER)", "INSERT INTO t VALUES (1)");
    }

    @Test
    void everyPrefixPlaceholderIsReplaced() {
        assertThat(SchemaManager.statements("CREATE TABLE ${prefix}files (parent INTEGER REFERENCES"
                + " ${prefix}files (id));", "app_"))
                .containsExactly("CREATE TABLE app_files (parent INTEGER REFERENCES app_files (id))");
    }

    @Test
    void aDollarQuotedBodyIsOneStatementWhateverItsLinesEndWith() {
        String script = """
                CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    DELETE FROM t WHERE x = ';';
                    RETURN NULL;
                END $$;
                CREATE TRIGGER g AFTER DELETE ON t FOR EACH STATEMENT EXECUTE FUNCTION f();
                DO $$ BEGIN PERFORM 1; END $$;
                """;
        assertThat(SchemaManager.statements(script, "")).containsExactly(
                "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n    DELETE FROM t WHERE x = ';';\n"
                        + "    RETURN NULL;\nEND $$",
                "CREATE TRIGGER g AFTER DELETE ON t FOR EACH STATEMENT EXECUTE FUNCTION f()",
                "DO $$ BEGIN PERFORM 1; END $$");
    }
}
