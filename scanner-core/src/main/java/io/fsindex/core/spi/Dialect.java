package io.fsindex.core.spi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.jooq.SQLDialect;

/**
 * One database engine, as fsindex sees it: which JDBC URLs it serves, the jOOQ dialect that renders its SQL, and a
 * few focused parts, each with one job: {@link #connections()} (data sources, session settings, transactions, the
 * schema lock), {@link #errors()} (what the engine's errors mean), {@link #statements()} (the statements that must
 * differ), {@link #bulkLoader} (the engine's bulk load, if any), and its schema ({@link #schemaScript},
 * {@link #createSchemaScript}, {@link #maxIdentifierLength}, {@link #nameSearchIndex}). Everything else fsindex
 * renders once in core from jOOQ.
 * Implementations are found through {@code META-INF/services/io.fsindex.core.spi.Dialect} by
 * {@link #handlesJdbcUrl}, or given explicitly with {@code FsIndex.builder().dialect(...)}; fsindex asks for each part
 * once per index, so a part may be built when asked.
 */
public interface Dialect {

    /** The engine's name as users know it, for messages ("SQLite", "PostgreSQL"). */
    String name();

    /** Returns true if this dialect serves the JDBC URL (match loosely, e.g. {@code contains(":sqlite:")}). */
    boolean handlesJdbcUrl(String jdbcUrl);

    /** The jOOQ dialect that renders this engine's SQL. */
    SQLDialect sqlDialect();

    /** How connections to the engine are opened and prepared, and how its write transactions run. */
    Connections connections();

    /** What the engine's errors mean: retryable, connection lost, or a likely cause worth telling the user. */
    ErrorClassifier errors();

    /** The statements this engine needs written its own way; by default {@link DialectStatements#STANDARD}. */
    default DialectStatements statements() {
        return DialectStatements.STANDARD;
    }

    /**
     * Returns the engine's bulk loader for new child rows and the change rows recording them, or null where it has
     * none (the default): the rows then go in as {@link DialectStatements#insertChildren}, the changes as inserts.
     * fsindex loads only the children of a directory its scan inserted itself, and change rows numbered while it holds
     * the feed's head, so the loader needs no conflict handling: it fails on a conflicting row, and in the rare case
     * that can have one (a newer partial scan's root below such a directory) fsindex retries the transaction with
     * inserts. Each loaded row's parent has been read by the same transaction with its guard
     * ({@link DialectStatements#lockedWhereConcurrent}), locked where the engine needs it, and found, and the row's
     * scan is running, so the engine's foreign-key checks of the loaded rows can find nothing wrong and a loader may
     * skip them.
     */
    default BulkLoader bulkLoader(FsTables t) {
        return null;
    }

    /**
     * Returns the DDL script (resource {@code schema/V<version>.sql} beside the dialect class) that brings the schema
     * from version {@code version - 1} to {@code version}, with {@code ${prefix}} where table names start, or empty if
     * this dialect has no such version.
     */
    default Optional<String> schemaScript(int version) {
        return resource(scriptsBeside(), "schema/V" + version + ".sql");
    }

    /**
     * Returns the DDL script (resource {@code schema/create/V<version>.sql} beside the dialect class) that creates the
     * tables at {@code version} at once in a database that has none, leaving exactly what the scripts of versions 1 to
     * {@code version} leave (the test kit's {@code SchemaCreationConformanceTest} compares the two), or empty (the
     * default where there is no such resource): fsindex then runs those scripts one after another. Worth having where
     * the engine's DDL is slow, as InnoDB's is: each table is built once instead of once per version that alters it.
     * fsindex does not use it in the plain-foreign-key variant of a dialect that has one
     * ({@link #plainForeignKeySchemaScript}).
     */
    default Optional<String> createSchemaScript(int version) {
        return resource(scriptsBeside(), "schema/create/V" + version + ".sql");
    }

    /**
     * The longest name, in characters, the engine keeps whole for a table, index, constraint, trigger or function,
     * or 0 if it has no limit a table prefix could reach (the default). fsindex refuses, when an index is built, a
     * table prefix that would make any name its {@link #schemaScript schema scripts} derive from it longer: an engine
     * that shortens longer names (PostgreSQL) would make two of them one, and one that refuses them (MySQL) would
     * fail half-way through creating the schema. A limit in bytes is one in characters here: prefixes are ASCII.
     */
    default int maxIdentifierLength() {
        return 0;
    }

    /**
     * The script of {@code version} in the schema variant whose references are all plain foreign keys
     * ({@code FsIndex.Builder.plainForeignKeys}), where it differs from {@link #schemaScript}: resource
     * {@code schema/plain-foreign-keys/V<version>.sql} beside the dialect class; empty (the default where there is
     * no such resource) where the variant runs the ordinary script.
     */
    default Optional<String> plainForeignKeySchemaScript(int version) {
        return resource(scriptsBeside(), "schema/plain-foreign-keys/V" + version + ".sql");
    }

    /**
     * The engine's text index for case-insensitive substring search of names, or empty where it has none that fits
     * (the default): {@code find} then narrows names by a plain scan.
     */
    default Optional<NameSearchIndex> nameSearchIndex() {
        return Optional.empty();
    }

    /**
     * The class whose package holds the schema scripts (the resources the script methods read): the dialect's own by
     * default; a dialect that inherits its scripts from a base class in another package names that class.
     */
    default Class<?> scriptsBeside() {
        return getClass();
    }

    /**
     * The text of resource {@code name} beside class {@code owner}, or empty if there is none.
     */
    private static Optional<String> resource(Class<?> owner, String name) {
        try (InputStream in = owner.getResourceAsStream(name)) {
            return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
