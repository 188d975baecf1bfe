package io.fsindex.core.query;

import io.fsindex.core.internal.ConnectionStatements;
import io.fsindex.core.internal.Lookups;
import io.fsindex.core.internal.Sql;
import io.fsindex.core.internal.Statements;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.param;

import io.fsindex.api.DirectorySize;
import io.fsindex.api.DuplicateGroup;
import io.fsindex.api.FileEntry;
import io.fsindex.api.FileQuery;
import io.fsindex.api.FindPage;
import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.DialectStatements;
import io.fsindex.core.spi.FsTables;
import io.fsindex.core.write.Row;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SelectConditionStep;
import org.jooq.SelectJoinStep;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The read-only questions an index answers beyond a lookup by path: entries by id, pages of children, find, subtree
 * sizes and duplicates. Every statement reads rows through alias {@code r}, so one select list serves them all.
 */
public final class Queries {
    private final FsTables t;
    private final DSLContext ctx;
    private final Statements statements;
    private final Lookups lookups;
    private final Sql childrenPage;
    private final Sql subtreeSize;
    private final Sql subdirectorySizes;
    private final Finds finds;
    private final SoleSubtree sole;
    private final WholeTableSize wholeTableSize;
    private final DialectStatements own;

    public Queries(Dialect dialect, FsTables t, Statements statements, Lookups lookups) {
        this.t = t;
        this.ctx = Statements.context(dialect);
        this.statements = statements;
        this.lookups = lookups;
        this.own = dialect.statements();
        this.sole = new SoleSubtree(ctx, t, statements);
        this.wholeTableSize = new WholeTableSize(ctx, t);
        this.finds = new Finds(ctx, t, statements, own, dialect.nameSearchIndex(), sole);
        childrenPage = Sql.render(ctx, selectEntries().where(r(t.parent).eq(param("dir", Long.class)))
                .and(r(t.name).gt(param("after", String.class))).and(live())
                .orderBy(r(t.name)).limit(param("limit", Integer.class)));
        subtreeSize = Sql.render(ctx, totals(t.id.eq(param("dir", Long.class))));
        subdirectorySizes = Sql.render(ctx, sizes(t.parent.eq(param("dir", Long.class))
                .and(t.kind.eq(inline("DIRECTORY")))).limit(param("limit", Integer.class)));
    }

    public Optional<FileEntry> byId(Connection c, long id) throws SQLException {
        try (Sql.Bound q = lookups.byId().prepare(c)) {
            q.set("id", id);
            try (ResultSet rs = q.statement.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                try (ConnectionStatements prepared = new ConnectionStatements(c)) {
                    return Optional.of(entry(rs, new DirectoryPaths(prepared, statements, 0)));
                }
            }
        }
    }

    public List<FileEntry> children(Connection c, long dir, Path dirPath, String afterName, int limit) throws SQLException {
        List<FileEntry> out = new ArrayList<>();
        try (Sql.Bound q = childrenPage.prepare(c)) {
            // Names are never empty (a check constraint says so), so "" is before every name.
            q.set("dir", dir).set("after", afterName == null ? "" : afterName).set("limit", limit);
            try (ResultSet rs = q.statement.executeQuery()) {
                while (rs.next()) {
                    out.add(Lookups.entryAt(rs, dirPath.resolve(rs.getString("name"))));
                }
            }
        }
        return out;
    }

    /** A page of {@code query}'s matches; {@code under} is the id of its directory, or 0 for the whole index. */
    public FindPage find(Connection c, FileQuery query, long under) throws SQLException {
        return finds.find(c, query, under);
    }

    public Optional<DirectorySize> directorySize(Connection c, long dir, Path path) throws SQLException {
        if (own.sumsSoleSubtreesInOnePass() && sole.holdsAllButItsAncestors(c, dir)) {
            Optional<DirectorySize> whole = wholeTableSize.read(c, dir, path);
            if (whole.isPresent()) {
                return whole;
            }
        }
        try (Sql.Bound q = subtreeSize.prepare(c)) {
            q.set("dir", dir);
            try (ResultSet rs = q.statement.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                rs.getLong("top");
                return rs.wasNull() ? Optional.empty() : Optional.of(new DirectorySize(dir, path,
                        SizeSums.number(rs, "bytes"), SizeSums.number(rs, "files"),
                        SizeSums.number(rs, "directories")));
            }
        }
    }

    public List<DirectorySize> largestSubdirectories(Connection c, long dir, int limit) throws SQLException {
        List<long[]> found = new ArrayList<>();
        try (Sql.Bound q = subdirectorySizes.prepare(c)) {
            q.set("dir", dir).set("limit", limit);
            try (ResultSet rs = q.statement.executeQuery()) {
                while (rs.next()) {
                    found.add(new long[] {rs.getLong("top"), SizeSums.number(rs, "bytes"),
                            SizeSums.number(rs, "files"), SizeSums.number(rs, "directories")});
                }
            }
        }
        List<DirectorySize> out = new ArrayList<>();
        try (ConnectionStatements prepared = new ConnectionStatements(c)) {
            DirectoryPaths paths = new DirectoryPaths(prepared, statements, 0);
            for (long[] f : found) {
                out.add(new DirectorySize(f[0], pathOf(paths, f[0]), f[1], f[2], f[3]));
            }
        }
        return out;
    }

    /**
     * Groups of live regular files by size and content hash, and, among files without a content hash, by size and
     * fingerprint; most bytes wasted first, then by the hash or fingerprint, a group by hash before one by
     * fingerprint, then by size (the same order on every engine: the values are lower-case hex).
     */
    public List<DuplicateGroup> duplicates(Connection c, long under, int limit) throws SQLException {
        Condition files = live().and(r(t.kind).eq(inline("FILE")));
        // a file with a content hash is grouped by it alone; its fingerprint only stands in where there is no hash
        Field<String> fingerprintOnly = DSL.when(r(t.contentHash).isNull(), r(t.fingerprint));
        Field<String> key = DSL.coalesce(r(t.contentHash), r(t.fingerprint));
        Field<Integer> byFingerprint = DSL.when(r(t.contentHash).isNull(), inline(1)).otherwise(inline(0));
        Field<Integer> copies = DSL.count();
        Sql groups = Sql.render(ctx, fromSelecting(under != 0, r(t.size), r(t.contentHash),
                        fingerprintOnly.as("fingerprint_only"), copies)
                .and(files).and(r(t.contentHash).isNotNull().or(r(t.fingerprint).isNotNull()))
                .groupBy(r(t.size), r(t.contentHash), fingerprintOnly).having(copies.gt(inline(1)))
                .orderBy(copies.minus(inline(1)).cast(SQLDataType.BIGINT).times(r(t.size)).desc(), DSL.max(key),
                        DSL.max(byFingerprint), r(t.size))
                .limit(param("limit", Integer.class)));
        Sql byHash = Sql.render(ctx, from(under != 0).and(files)
                .and(r(t.contentHash).eq(param("value", String.class))).and(r(t.size).eq(param("size", Long.class)))
                .orderBy(r(t.id)));
        Sql byPrint = Sql.render(ctx, from(under != 0).and(files).and(r(t.contentHash).isNull())
                .and(r(t.fingerprint).eq(param("value", String.class))).and(r(t.size).eq(param("size", Long.class)))
                .orderBy(r(t.id)));
        List<Object[]> found = new ArrayList<>();
        try (Sql.Bound q = groups.prepare(c)) {
            q.set("limit", limit);
            if (under != 0) {
                q.set("top", under);
            }
            try (ResultSet rs = q.statement.executeQuery()) {
                while (rs.next()) {
                    found.add(new Object[] {rs.getLong("size"), rs.getString("content_hash"),
                            rs.getString("fingerprint_only")});
                }
            }
        }
        List<DuplicateGroup> out = new ArrayList<>();
        try (ConnectionStatements prepared = new ConnectionStatements(c); Sql.Bound hashed = byHash.prepare(c);
             Sql.Bound printed = byPrint.prepare(c)) {
            DirectoryPaths paths = new DirectoryPaths(prepared, statements, 0);
            for (Object[] g : found) {
                String hash = (String) g[1];
                Sql.Bound q = hash != null ? hashed : printed;
                q.set("value", hash != null ? hash : (String) g[2]).set("size", (Long) g[0]);
                if (under != 0) {
                    q.set("top", under);
                }
                List<FileEntry> members = new ArrayList<>();
                try (ResultSet rs = q.statement.executeQuery()) {
                    while (rs.next()) {
                        members.add(entry(rs, paths));
                    }
                }
                // A scan may have changed a file between the two reads: a group needs two copies still.
                if (members.size() > 1) {
                    out.add(new DuplicateGroup((Long) g[0], hash, hash != null ? null : (String) g[2], members));
                }
            }
        }
        return out;
    }

    /**
     * Selects {@code top, bytes, files, directories} for each live directory matching {@code anchor}, largest first:
     * its directories are walked, and the entries of each are summed from the tree index. A directory without
     * entries still has its row (the outer join), with zero sums.
     */
    private org.jooq.SelectLimitStep<?> sizes(Condition anchor) {
        Field<java.math.BigDecimal> bytes = SizeSums.bytes();
        return sumsBelow(anchor, DirectoryWalk.top(), bytes).groupBy(DirectoryWalk.top())
                .orderBy(bytes.desc(), DirectoryWalk.top());
    }

    /**
     * Selects {@code top, bytes, files, directories} of the one live directory matching {@code anchor}: as {@link
     * #sizes} without grouping, which would sort every entry below; {@code top} is null if there is no such
     * directory.
     */
    private org.jooq.Select<?> totals(Condition anchor) {
        return sumsBelow(anchor, DSL.min(DirectoryWalk.top()), SizeSums.bytes());
    }

    private SelectJoinStep<?> sumsBelow(Condition anchor, Field<Long> top, Field<java.math.BigDecimal> bytes) {
        // The walk comes first in the join: SQLite keeps that order for an outer join and would otherwise scan the
        // whole table for a small subtree.
        return ctx.withRecursive(DirectoryWalk.directories(t, own, anchor))
                .select(top.as("top"), bytes.as("bytes"), SizeSums.files().as("files"),
                        SizeSums.directories().as("directories"))
                .from(DirectoryWalk.table())
                .leftJoin(own.filesByParent(t, "r")).on(r(t.parent).eq(DirectoryWalk.id())).and(live());
    }

    /** The live entries' columns from the whole index, or from below directory {@code :top}. */
    private SelectConditionStep<Record> from(boolean under) {
        return fromSelecting(under, entryColumns());
    }

    /**
     * {@code columns} of every row, or of the rows below directory {@code :top}: the entries of the directories a
     * walk finds, the walk read first ({@link DirectoryWalk#rows}). Conditions on the rows follow with {@code and};
     * whether they are live is left to them.
     */
    private SelectConditionStep<Record> fromSelecting(boolean under, Field<?>... columns) {
        if (!under) {
            return ctx.select(columns).from(t.files.as("r")).where(DSL.noCondition());
        }
        return ctx.withRecursive(DirectoryWalk.directories(t, own, t.id.eq(param("top", Long.class))))
                .select(columns)
                .from(DirectoryWalk.rows(t, own, "r")).where(r(t.parent).eq(DirectoryWalk.id()));
    }

    private SelectJoinStep<Record> selectEntries() {
        return ctx.select(entryColumns()).from(t.files.as("r"));
    }

    private Field<?>[] entryColumns() {
        return entryColumns(t);
    }

    /**
     * {@link Row#COLUMNS} of alias {@code r} (the order {@link Lookups#entryAt} reads them in), then fingerprint and
     * content hash.
     */
    static Field<?>[] entryColumns(FsTables t) {
        List<Field<?>> columns = new ArrayList<>();
        Row.COLUMNS.forEach(column -> columns.add(field(name("r", column))));
        columns.add(r(t.fingerprint));
        columns.add(r(t.contentHash));
        return columns.toArray(Field<?>[]::new);
    }

    private Condition live() {
        return r(t.goneAt).isNull();
    }

    private static <T> Field<T> r(Field<T> column) {
        return field(name("r", column.getName()), column.getType());
    }

    private FileEntry entry(ResultSet rs, DirectoryPaths paths) throws SQLException {
        long parent = rs.getLong("parent");
        String name = rs.getString("name");
        return Lookups.entryAt(rs, parent == 0 ? Path.of(name) : pathOf(paths, parent).resolve(name));
    }

    private static Path pathOf(DirectoryPaths paths, long id) throws SQLException {
        Path path = paths.of(id);
        if (path == null) {
            throw new SQLException("row " + id + " vanished while its path was read");
        }
        return path;
    }
}
