package io.fsindex.core.schema;

import io.fsindex.core.SchemaMode;
import io.fsindex.core.internal.Database;
import io.fsindex.core.internal.TableNames;
import io.fsindex.api.SchemaException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Creates, upgrades and checks fsindex's tables, with the version recorded in the {@code <prefix>schema} table. */
public final class SchemaManager {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaManager.class);
    /** The schema version this build of fsindex writes and reads. */
    public static final int CURRENT_VERSION = 8;

    private final Database db;
    private final TableNames t;
    private final ReferenceMode references;

    /** A schema manager for the default reference mode (enough for reading the version). */
    public SchemaManager(Database db, TableNames t) {
        this(db, t, new ReferenceMode(db.dialect(), false));
    }

    /** A schema manager that creates the tables in {@code references}' mode and checks existing ones are in it. */
    public SchemaManager(Database db, TableNames t, ReferenceMode references) {
        this.db = db;
        this.t = t;
        this.references = references;
    }

    /** The columns each table must have at {@code version}; extra columns an application adds are tolerated. */
    Map<String, List<String>> expectedColumns(int version) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        List<String> scans = new ArrayList<>(List.of("id", "root", "state", "started_at", "finished_at", "added",
                "updated", "deleted", "errors", "message"));
        List<String> files = new ArrayList<>(List.of("id", "parent", "name", "kind", "size", "mtime", "link_target",
                "scan_id", "listed_by", "stale"));
        if (version >= 2) {
            scans.add("moved");
            files.addAll(List.of("file_key", "gone_at", "fingerprint", "content_hash"));
        }
        if (version >= 4) {
            scans.add("heartbeat_at");
        }
        m.put(t.scansName(), scans);
        m.put(t.filesName(), files);
        m.put(t.schemaName(), List.of("version"));
        if (version >= 2) {
            m.put(t.contentsName(), List.of("hash", "size", "created_at", "unused_since"));
            m.put(t.changesName(), List.of("seq", "entry", "change_type", "kind", "dir", "name", "previous_path",
                    "scan_id", "at"));
            m.put(t.changeDirsName(), List.of("id", "path"));
            m.put(t.feedName(), List.of("id", "last_seq", "pruned_through"));
        }
        if (version >= 5) {
            m.put(t.scopesName(), List.of("path_hash", "path", "rules", "device", "updated_at"));
        }
        if (version >= 6) {
            m.put(t.scanIdsName(), List.of("id", "last_id"));
        }
        return m;
    }

    public void migrate() throws SQLException {
        try (Connection c = db.connect()) {
            db.connections().lockSchema(c, t.prefix);
            try {
                while (!upgraded(c)) {
                    // another connection created or upgraded the tables meanwhile: start again from what it left
                }
            } finally {
                db.connections().unlockSchema(c, t.prefix);
            }
            check(c, CURRENT_VERSION);
        }
    }

    /**
     * Brings the tables to {@link #CURRENT_VERSION} in one write transaction; returns false if a schema statement
     * failed because another connection, one that does not take {@link io.fsindex.core.spi.Connections#lockSchema the
     * schema lock} (an older fsindex, a migration tool), was creating or upgrading the same tables at the same time.
     * Any other failure of a schema statement is thrown at once with the engine's message: it is not a race, and
     * running the statement again would only fail the same way until the retry timeout.
     */
    private boolean upgraded(Connection c) throws SQLException {
        int[] from = {-1};
        try {
            db.write(c, conn -> {
                int version = version(c);
                if (version > CURRENT_VERSION) {
                    throw newer(version);
                }
                if (version > 0 && version < CURRENT_VERSION) {
                    check(c, version);    // upgrade only tables that are what their version says
                }
                int at = version;
                Optional<String> create = version == 0 ? references.createScript(CURRENT_VERSION) : Optional.empty();
                if (create.isPresent()) {
                    LOG.info("creating fsindex's tables {}* in the {} database at version {}", t.prefix,
                            db.dialect().name(), CURRENT_VERSION);
                    apply(c, create.get(), 0, CURRENT_VERSION);
                    at = CURRENT_VERSION;
                }
                for (int v = at + 1; v <= CURRENT_VERSION; v++) {
                    LOG.info("migrating fsindex's tables {}* in the {} database from version {} to {}", t.prefix,
                            db.dialect().name(), v - 1, v);
                    int to = v;
                    apply(c, references.script(v).orElseThrow(() -> new SchemaException("the " + db.dialect().name()
                            + " dialect has no schema script for version " + to)), v - 1, v);
                }
                from[0] = version;
                return null;
            });
            if (from[0] < CURRENT_VERSION) {
                LOG.info("migrated fsindex's tables {}* in the {} database: now at version {} (were at {})",
                        t.prefix, db.dialect().name(), CURRENT_VERSION, from[0]);
            }
            return true;
        } catch (FailedStatement failed) {
            // Rolled back. In the race, the other connection's CREATE of the same object committed first, and with
            // it the version its script brought: past the one this script started from, so the next attempt starts
            // from there. Otherwise the name is taken for good (or the statement is wrong for this database).
            if (committedVersion(c, failed) > failed.from) {
                LOG.info("another connection migrated fsindex's tables {}* meanwhile; reading their version again",
                        t.prefix);
                return false;
            }
            throw new SchemaException("cannot " + (failed.from == 0 ? "create" : "upgrade") + " fsindex's tables "
                    + t.prefix + "* in the " + db.dialect().name() + " database (schema version " + failed.to
                    + "): " + failed.getCause().getMessage() + "; the statement was: " + failed.statement,
                    failed.getCause());
        }
    }

    /** The version recorded now, outside any transaction; 0 if it cannot be read, which is added to {@code failed}. */
    private int committedVersion(Connection c, FailedStatement failed) {
        try {
            return version(c);
        } catch (SQLException | RuntimeException e) {
            failed.getCause().addSuppressed(e);
            return 0;
        }
    }

    /** A schema script's statement that failed with an error not worth a retry on its own ({@link Database#write}). */
    private static final class FailedStatement extends RuntimeException {
        /** The version the script started from (0: it was creating the tables). */
        final int from;
        /** The version the script was to bring. */
        final int to;
        final String statement;

        FailedStatement(int from, int to, String statement, SQLException cause) {
            super(cause);
            this.from = from;
            this.to = to;
            this.statement = statement;
        }
    }

    public void validate() throws SQLException {
        try (Connection c = db.connect()) {
            int version = version(c);
            if (version == 0 && db.readOnly()) {
                throw new SchemaException("no index in this " + db.dialect().name() + " database: no fsindex tables ("
                        + t.prefix + "*) found, and a read-only handle never creates them; check the database and"
                        + " table prefix, or scan into it first");
            }
            if (version == 0) {
                throw new SchemaException("no fsindex tables (" + t.prefix + "*) found in the " + db.dialect().name()
                        + " database, and the schema mode is VALIDATE: apply fsindex's schema scripts first, or open"
                        + " with SchemaMode.MIGRATE");
            }
            if (version > CURRENT_VERSION) {
                throw newer(version);
            }
            if (version < CURRENT_VERSION) {
                throw new SchemaException("the database holds fsindex schema version " + version + " but this fsindex"
                        + " needs version " + CURRENT_VERSION + "; apply the migration scripts up to V"
                        + CURRENT_VERSION + ", or open with SchemaMode.MIGRATE");
            }
            check(c, CURRENT_VERSION);
        }
    }

    /** The recorded schema version, or 0 if fsindex has never created its tables here. */
    public int version(Connection c) throws SQLException {
        Map<String, String> tables = tables(c);
        if (!tables.containsKey(key(t.schemaName()))) {
            // Any of fsindex's table names, not only files and scans: a leftover one would otherwise make the first
            // migration fail with the engine's "already exists", which says less about what to do.
            for (String name : expectedColumns(CURRENT_VERSION).keySet()) {
                if (tables.containsKey(key(name))) {
                    throw new SchemaException("found table " + name + " but no " + t.schemaName() + " version"
                            + " record: these tables were not created by fsindex, or their version record was"
                            + " removed; refusing to touch them");
                }
            }
            return 0;
        }
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT version FROM " + t.schemaName())) {
            if (!rs.next()) {
                throw new SchemaException("table " + t.schemaName() + " holds no version record");
            }
            int version = rs.getInt(1);
            if (rs.next()) {
                throw new SchemaException("table " + t.schemaName() + " holds more than one version record");
            }
            return version;
        }
    }

    /** Runs {@code script}, which brings the tables from version {@code from} to {@code to}. */
    private void apply(Connection c, String script, int from, int to) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : statements(script, t.prefix)) {
                try {
                    s.execute(sql);
                } catch (SQLException e) {
                    if (db.isRetryable(e)) {
                        throw e;    // busy, deadlocked: the whole transaction runs again
                    }
                    throw new FailedStatement(from, to, sql.lines().findFirst().orElse(sql).strip(), e);
                }
            }
        }
    }

    /**
     * Splits a DDL script into statements: {@code ;} at a line's end ends one, except inside a {@code $$}-quoted
     * body (a PostgreSQL function's); {@code --} lines are comments.
     */
    public static List<String> statements(String script, String prefix) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean inBody = false;
        for (String line : script.replace("${prefix}", prefix).split("\n")) {
            String trimmed = line.strip();
            if (trimmed.startsWith("--") || trimmed.isEmpty()) {
                continue;
            }
            current.append(line).append('\n');
            if (line.split("\\$\\$", -1).length % 2 == 0) {
                inBody = !inBody;           // an odd number of $$ on the line opens or closes a body
            }
            if (!inBody && trimmed.endsWith(";")) {
                String sql = current.toString().strip();
                out.add(sql.substring(0, sql.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            out.add(current.toString().strip());
        }
        return out;
    }

    private void check(Connection c, int version) throws SQLException {
        Map<String, String> tables = tables(c);
        Map<String, Set<String>> columns = columns(c, tables);
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : expectedColumns(version).entrySet()) {
            String stored = tables.get(key(e.getKey()));
            if (stored == null) {
                problems.add("table " + e.getKey() + " is missing");
                continue;
            }
            Set<String> actual = columns.getOrDefault(stored, Set.of());
            List<String> missing = e.getValue().stream().filter(col -> !actual.contains(col)).toList();
            if (!missing.isEmpty()) {
                problems.add("table " + e.getKey() + " lacks column(s) " + String.join(", ", missing)
                        + " (has " + String.join(", ", actual) + ")");
            }
        }
        if (!problems.isEmpty()) {
            throw new SchemaException("the fsindex tables in this " + db.dialect().name() + " database do not match"
                    + " schema version " + version + ": " + String.join("; ", problems));
        }
        if (!db.readOnly()) {
            // A reader reads the same either way; a writer's scans rely on the mode's cascade and checks.
            references.check(c, t, tables.get(key(t.filesName())), version);
        }
    }

    private SchemaException newer(int version) {
        return new SchemaException("this database was written by a newer fsindex (schema version " + version
                + "); this fsindex understands schema versions up to " + CURRENT_VERSION
                + ". Upgrade fsindex to use it; nothing was changed");
    }

    /**
     * fsindex's tables in the connection's schema (those whose names start with the prefix), by lower-cased name, each
     * with its name as the database stores it. Unquoted names are case-insensitive in SQL (and folded differently by
     * each engine), so a prefix such as {@code MyApp_} must find {@code MyApp_files}, {@code myapp_files} or
     * {@code MYAPP_FILES} alike. Asked by name pattern, once per way an engine folds names: a schema can hold many
     * other tables (every other prefix's), and listing them all costs more than the few lookups.
     */
    private Map<String, String> tables(Connection c) throws SQLException {
        Map<String, String> names = new TreeMap<>();
        DatabaseMetaData md = c.getMetaData();
        Set<String> patterns = new LinkedHashSet<>(List.of(t.prefix, key(t.prefix), t.prefix.toUpperCase(Locale.ROOT)));
        for (String prefix : patterns) {
            try (ResultSet rs = md.getTables(c.getCatalog(), c.getSchema(), startingWith(md, prefix),
                    new String[] {"TABLE"})) {
                while (rs.next()) {
                    String name = rs.getString("TABLE_NAME");
                    if (key(name).startsWith(key(t.prefix))) {
                        names.put(key(name), name);
                    }
                }
            }
        }
        return names;
    }

    private static String key(String tableName) {
        return tableName.toLowerCase(Locale.ROOT);
    }

    /**
     * The lower-cased column names of each of {@code tables} (as {@link #tables} returns them), by the table's stored
     * name: read in one call per form the prefix is stored in (one, unless the tables' names were folded apart).
     */
    private Map<String, Set<String>> columns(Connection c, Map<String, String> tables) throws SQLException {
        Map<String, Set<String>> columns = new HashMap<>();
        Set<String> prefixes = new LinkedHashSet<>();
        for (String stored : tables.values()) {
            prefixes.add(stored.substring(0, t.prefix.length()));
        }
        DatabaseMetaData md = c.getMetaData();
        for (String prefix : prefixes) {
            try (ResultSet rs = md.getColumns(c.getCatalog(), c.getSchema(), startingWith(md, prefix), null)) {
                while (rs.next()) {
                    String table = rs.getString("TABLE_NAME");
                    if (tables.containsValue(table)) {
                        columns.computeIfAbsent(table, x -> new TreeSet<>())
                                .add(rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
                    }
                }
            }
        }
        return columns;
    }

    /** A metadata name pattern for the names that start with {@code prefix}, its wildcards escaped. */
    private static String startingWith(DatabaseMetaData md, String prefix) throws SQLException {
        String escape = md.getSearchStringEscape();
        return (escape == null || escape.isEmpty() ? prefix
                : prefix.replace(escape, escape + escape).replace("_", escape + "_").replace("%", escape + "%")) + "%";
    }
}
