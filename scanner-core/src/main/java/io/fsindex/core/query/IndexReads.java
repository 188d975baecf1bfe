package io.fsindex.core.query;

import io.fsindex.api.Change;
import io.fsindex.api.ChangeBatch;
import io.fsindex.api.DirectorySize;
import io.fsindex.api.DuplicateGroup;
import io.fsindex.api.FileEntry;
import io.fsindex.api.FileQuery;
import io.fsindex.api.FindPage;
import io.fsindex.api.IndexInfo;
import io.fsindex.api.ScanRecord;
import io.fsindex.core.feed.FeedReader;
import io.fsindex.core.internal.ConnectionStatements;
import io.fsindex.core.internal.Database;
import io.fsindex.core.internal.Sql;
import io.fsindex.core.internal.Lazy;
import io.fsindex.core.internal.Lookups;
import io.fsindex.core.internal.Lookups.StoredEntry;
import io.fsindex.core.internal.Statements;
import io.fsindex.core.internal.TableNames;
import java.util.function.Supplier;
import io.fsindex.core.scan.RealPaths;
import io.fsindex.core.scan.ScanLifecycle;
import io.fsindex.core.schema.SchemaManager;
import io.fsindex.core.spi.FsTables;
import io.fsindex.core.write.Row;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The read side of an index, shared by {@code FsIndex} and the read-only reader: finds an entry by path the way
 * {@code FsIndex.lookup} documents, and runs the read queries and the change feed's reads, each in a read
 * transaction. Internal; {@code FsIndex} documents each method.
 */
public final class IndexReads {
    private final Database db;
    private final Supplier<Statements> statements;
    private final TableNames tables;
    /** Made when a read other than a lookup first needs it: it renders with jOOQ. */
    private final Lazy<Queries> queries;
    private final Lookups lookups;
    /** {@link io.fsindex.core.spi.DialectStatements#namesPerPathStatement}. */
    private final int namesPerStatement;
    private final ScanLifecycle lifecycle;

    /**
     * @param statements    fsindex's statements, rendered when first asked for
     * @param tables        the table names
     * @param jooqTables    the same tables as jOOQ objects, made when first asked for
     */
    public IndexReads(Database db, Supplier<Statements> statements, TableNames tables, Supplier<FsTables> jooqTables,
                      ScanLifecycle lifecycle) {
        this.db = db;
        this.statements = statements;
        this.tables = tables;
        this.lookups = new Lookups(tables);
        this.namesPerStatement = db.dialect().statements().namesPerPathStatement();
        if (namesPerStatement < 1 || namesPerStatement > Lookups.PATH_NAMES) {
            throw new IllegalStateException("dialect " + db.dialect().name() + " has a path statement follow "
                    + namesPerStatement + " names; it may follow 1 to " + Lookups.PATH_NAMES);
        }
        this.queries = new Lazy<>(() -> new Queries(db.dialect(), jooqTables.get(), statements.get(), lookups));
        this.lifecycle = lifecycle;
    }

    public Optional<FileEntry> lookup(Path path) {
        return db.read(c -> locate(c, path).map(found -> found.stored().at(found.path())));
    }

    public Optional<FileEntry> lookup(long id) {
        return db.read(c -> queries.get().byId(c, id));
    }

    public List<FileEntry> children(Path path, String afterName, int limit) {
        requirePositive(limit);
        return db.read(c -> {
            Optional<Located> dir = locate(c, path);
            return dir.isEmpty() ? List.<FileEntry>of()
                    : queries.get().children(c, dir.get().row().id(), dir.get().path(), afterName, limit);
        });
    }

    public FindPage find(FileQuery query) {
        Objects.requireNonNull(query, "query");
        return db.read(c -> {
            long under = 0;
            if (query.under() != null) {
                Optional<Located> dir = locate(c, query.under());
                if (dir.isEmpty() || !dir.get().row().isDirectory()) {
                    return new FindPage(List.of(), query.after(), false);
                }
                under = dir.get().row().id();
            }
            return queries.get().find(c, query, under);
        });
    }

    public Optional<DirectorySize> directorySize(Path path) {
        return db.read(c -> {
            Optional<Located> dir = locate(c, path);
            return dir.isEmpty() ? Optional.<DirectorySize>empty()
                    : queries.get().directorySize(c, dir.get().row().id(), dir.get().path());
        });
    }

    public List<DirectorySize> largestSubdirectories(Path path, int limit) {
        requirePositive(limit);
        return db.read(c -> {
            Optional<Located> dir = locate(c, path);
            return dir.isEmpty() ? List.<DirectorySize>of()
                    : queries.get().largestSubdirectories(c, dir.get().row().id(), limit);
        });
    }

    public List<DuplicateGroup> duplicates(Path under, int limit) {
        requirePositive(limit);
        return db.read(c -> {
            long top = 0;
            if (under != null) {
                Optional<Located> dir = locate(c, under);
                if (dir.isEmpty() || !dir.get().row().isDirectory()) {
                    return List.<DuplicateGroup>of();
                }
                top = dir.get().row().id();
            }
            return queries.get().duplicates(c, top, limit);
        });
    }

    public static void requirePositive(int limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive; got " + limit);
        }
    }

    private record Located(Path path, StoredEntry stored) {
        Row row() {
            return stored.row();
        }
    }

    private Optional<Located> locate(Connection c, Path path) throws SQLException {
        try (ConnectionStatements st = new ConnectionStatements(c)) {
            return locate(st, path);
        }
    }

    private Optional<Located> locate(ConnectionStatements c, Path path) throws SQLException {
        Path abs = path.toAbsolutePath().normalize();
        Optional<StoredEntry> literal = find(c, abs);
        if (literal.isPresent()) {
            return Optional.of(new Located(abs, literal.get()));
        }
        Path linkItself = RealPaths.resolveParent(abs);
        if (!linkItself.equals(abs)) {
            Optional<StoredEntry> row = find(c, linkItself);
            if (row.isPresent()) {
                return Optional.of(new Located(linkItself, row.get()));
            }
        }
        Path real = RealPaths.resolve(abs);
        if (real.equals(abs) || real.equals(linkItself)) {
            return Optional.empty();
        }
        return find(c, real).map(row -> new Located(real, row));
    }

    public List<FileEntry> children(Path path) {
        return db.read(c -> {
            Optional<Located> dir = locate(c, path);
            List<FileEntry> out = new ArrayList<>();
            if (dir.isEmpty()) {
                return out;
            }
            long id = dir.get().row().id();
            for (List<FileEntry> page = queries.get().children(c, id, dir.get().path(), null, Statements.PAGE_ROWS);
                 !page.isEmpty(); page = page.size() < Statements.PAGE_ROWS ? List.of()
                         : queries.get().children(c, id, dir.get().path(), page.get(page.size() - 1).name(),
                         Statements.PAGE_ROWS)) {
                out.addAll(page);
            }
            out.sort(Comparator.comparing(FileEntry::name));
            return out;
        });
    }

    public ChangeBatch changesSince(long cursor, int limit) {
        if (cursor < 0 || limit <= 0) {
            throw new IllegalArgumentException("cursor must be >= 0 and limit > 0; got " + cursor + ", " + limit);
        }
        return db.read(c -> {
            long[] head = feedHead(c);
            if (cursor > head[0]) {
                throw new IllegalArgumentException("cursor " + cursor + " is beyond the change feed's end ("
                        + head[0] + "): it does not come from this database");
            }
            if (cursor < head[1]) {
                return new ChangeBatch(List.of(), head[0], true);
            }
            List<Change> changes = new ArrayList<>();
            try (Sql.Bound q = statements.get().readChanges.prepare(c)) {
                FeedReader.read(q, cursor, Math.min(head[0], cursor + limit), changes::add);
            }
            if (!changes.isEmpty() && changes.get(0).seq() != cursor + 1) {
                return new ChangeBatch(List.of(), head[0], true);     // pruned between the two reads
            }
            return new ChangeBatch(changes, changes.isEmpty() ? cursor : changes.get(changes.size() - 1).seq(), false);
        });
    }

    public long changeFeedEnd() {
        return db.read(c -> feedHead(c)[0]);
    }

    public long changeFeedLength() {
        return db.read(c -> {
            long[] head = feedHead(c);
            return head[0] - head[1];
        });
    }

    private long[] feedHead(Connection c) throws SQLException {
        try (Sql.Bound q = statements.get().readFeed.prepare(c); ResultSet rs = q.statement.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("the change feed's head row is missing from " + tables.feedName());
            }
            return new long[] {rs.getLong("last_seq"), rs.getLong("pruned_through")};
        }
    }

    public IndexInfo info(int recentScans, Set<Long> runningHere) {
        return db.read(c -> {
            String product = c.getMetaData().getDatabaseProductName() + " " + c.getMetaData().getDatabaseProductVersion();
            int version = new SchemaManager(db, tables).version(c);
            long files;
            long dirs;
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT COUNT(*) AS entries, SUM(CASE WHEN kind = 'DIRECTORY' THEN 1"
                         + " ELSE 0 END) AS directories FROM " + tables.filesName() + " WHERE gone_at IS NULL")) {
                rs.next();
                files = rs.getLong("entries");
                dirs = rs.getLong("directories");
            }
            List<ScanRecord> scans = lifecycle.recent(c, recentScans, runningHere);
            return new IndexInfo(product, version, files, dirs, scans);
        });
    }

    /** The row at {@code p}, with its content values, a statement per {@link #namesPerStatement} names. */
    private Optional<StoredEntry> find(ConnectionStatements c, Path p) throws SQLException {
        List<String> names = new ArrayList<>();
        names.add(p.getRoot().toString());
        for (Path name : p) {
            names.add(name.toString());
        }
        StoredEntry found = null;
        for (int from = 0; from < names.size(); from += namesPerStatement) {
            int n = Math.min(namesPerStatement, names.size() - from);
            Sql.Bound q = c.q(lookups.path(found == null, n));
            for (int i = 0; i < n; i++) {
                q.set(Lookups.nameParameter(i), names.get(from + i));
            }
            if (found != null) {
                q.set("parent", found.row().id());
            }
            try (ResultSet rs = q.statement.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();    // a name missing, or found gone (kept only to recognise a move)
                }
                found = StoredEntry.read(rs);
            }
        }
        return Optional.ofNullable(found);
    }
}
