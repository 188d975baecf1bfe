package io.fsindex.core.query;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.param;

import io.fsindex.api.FileEntry;
import io.fsindex.api.FileQuery;
import io.fsindex.api.FindPage;
import io.fsindex.core.internal.ConnectionStatements;
import io.fsindex.core.internal.Lookups.StoredEntry;
import io.fsindex.core.internal.Sql;
import io.fsindex.core.internal.Statements;
import io.fsindex.core.scan.NameFilter;
import io.fsindex.core.spi.DialectStatements;
import io.fsindex.core.spi.FsTables;
import io.fsindex.core.spi.NameSearchIndex;
import io.fsindex.core.write.Row;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * Reads a page of {@link FileQuery} matches in id order. Below a directory it picks how to find the rows there: a
 * walk down its directories, whose rows a size or time range reads from the tree index, picking the ids that match
 * (kept for the find's later pages, see {@link CarriedWalks}), then reading those rows; a pass over the whole table
 * in id order, when everything but the directory's ancestors lies below it (an index of one scanned root, asked
 * about that root), or when the subtree is a large share of the table and the rows must be read anyway.
 */
final class Finds {
    /** How many candidate rows one find statement reads while names are matched in Java. */
    private static final int FIND_BATCH = 512;
    /** The most rows one find statement reads when SQL alone decides a match. */
    private static final int PASS_BATCH = 100_000;
    /**
     * How many pages' worth of ids one walk picks, up to {@link #WALK_IDS}; a find with more matches walks again after
     * the last of them.
     */
    private static final int PAGES_PER_WALK = 8;
    private static final int WALK_IDS = CarriedWalks.MAX_IDS / 4;
    /** The most rows one statement reads by id. */
    private static final int ROWS_BY_ID = 512;
    /** No name conditions: rows read by id were picked by name already, and are matched in Java. */
    private static final NameFilter NO_NAMES = new NameFilter(null, null);

    /** The most statement shapes kept rendered; a handful serve any one application. */
    private static final int RENDERED_SHAPES = 64;

    /** A statement a find runs, rendered once per {@link Shape}. */
    private enum Statement {
        /** The table in id order ({@link Reach#TABLE}, {@link Reach#PASS}). */
        TABLE,
        /** A walk picking ids. */
        WALK,
        /** Rows read by id (a {@link Statements.ForIds}). */
        ROWS_BY_ID
    }

    /**
     * What a find statement's text depends on: which statement, which of the query's conditions it states (a bit
     * each, see {@link #conditions}) and its inlined limit.
     */
    private record Shape(Statement statement, int conditions, int limit) {
    }

    /** How a page reads the rows below a directory. */
    private enum Reach {
        /** The whole table in id order; below a directory, a row's ancestry is checked as its path is read. */
        TABLE,
        /** The whole table in id order, a row kept if its parent is among the directories below, read at once. */
        PASS,
        /** The directories below, walked by one recursive statement picking the ids of the rows that match. */
        WALK
    }

    private final FsTables t;
    private final DSLContext ctx;
    private final Statements statements;
    private final Optional<NameSearchIndex> nameSearch;
    private final DialectStatements own;
    private final LargeSubtrees large;
    private final CarriedWalks carried = new CarriedWalks();
    private final SoleSubtree sole;
    /** Statements rendered by shape, the least recently used dropped first past {@link #RENDERED_SHAPES}. */
    private final Map<Shape, Object> rendered = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Shape, Object> eldest) {
            return size() > RENDERED_SHAPES;
        }
    };

    Finds(DSLContext ctx, FsTables t, Statements statements, DialectStatements own,
          Optional<NameSearchIndex> nameSearch, SoleSubtree sole) {
        this.t = t;
        this.ctx = ctx;
        this.statements = statements;
        this.nameSearch = nameSearch;
        this.own = own;
        this.large = new LargeSubtrees(ctx, t, own);
        this.sole = sole;
    }

    /** A page of {@code query}'s matches; {@code under} is the id of its directory, or 0 for the whole index. */
    FindPage find(Connection c, FileQuery query, long under) throws SQLException {
        NameFilter names = new NameFilter(query.nameGlob(), query.nameContains());
        Reach reach = reach(c, query, under);
        if (reach == Reach.WALK) {
            return pageOfWalks(c, query, names, under);
        }
        // A pass below a large directory knows its directories from the whole table, read once per page.
        Set<Long> dirsBelow = reach == Reach.PASS ? large.directoriesBelow(c, under) : null;
        boolean namesInJava = query.nameGlob() != null || query.nameContains() != null;
        int batch = !namesInJava ? Math.max(FIND_BATCH, Math.min(query.limit(), PASS_BATCH) + 1) : FIND_BATCH;
        boolean indexed = searchIndexed(c, names);
        Sql sql = rendered(Statement.TABLE, query, names, indexed, batch, () -> Sql.render(ctx,
                ctx.select(Queries.entryColumns(t)).from(t.files.as("r"))
                        .where(matches("r", query, names, indexed)).orderBy(col("r", t.id)).limit(inline(batch))));
        List<FileEntry> out = new ArrayList<>();
        long cursor = query.after();
        try (ConnectionStatements prepared = new ConnectionStatements(c); Sql.Bound q = sql.prepare(c)) {
            DirectoryPaths paths = new DirectoryPaths(prepared, statements, under);
            while (true) {
                bind(q, query, names, 0, cursor);
                List<StoredEntry> candidates = new ArrayList<>();
                int read = 0;
                try (ResultSet rs = q.statement.executeQuery()) {
                    while (rs.next()) {
                        read++;
                        StoredEntry stored = StoredEntry.read(rs);
                        Row row = stored.row();
                        cursor = row.id();
                        if (names.matches(row.name()) && (dirsBelow == null || dirsBelow.contains(row.parent()))) {
                            candidates.add(stored);
                        }
                    }
                }
                long filledAt = addWithPaths(candidates, paths, reach == Reach.TABLE && under != 0, out, query.limit());
                if (filledAt != 0) {
                    return new FindPage(out, filledAt, true);
                }
                if (read < batch) {
                    return new FindPage(out, cursor, false);
                }
            }
        }
    }

    /**
     * Walks the directories below {@code under} once, picking in id order the ids after the query's cursor of the
     * rows that match (names only narrowed, as far as SQL can), enough for {@link #PAGES_PER_WALK} pages.
     */
    private CarriedWalks.Walked walk(Connection c, FileQuery query, NameFilter names, long under)
            throws SQLException {
        int most = (int) Math.min(WALK_IDS, (long) PAGES_PER_WALK * query.limit());
        boolean indexed = searchIndexed(c, names);
        Sql sql = rendered(Statement.WALK, query, names, indexed, most + 1, () -> Sql.render(ctx, ctx.withRecursive(
                        DirectoryWalk.directories(t, own, t.id.eq(param("top", Long.class))))
                .select(col("m", t.id)).from(DirectoryWalk.rows(t, own, "m"))
                .where(col("m", t.parent).eq(DirectoryWalk.id()))
                .and(matches("m", query, names, indexed))
                .orderBy(col("m", t.id)).limit(inline(most + 1))));
        long[] ids = new long[1024];
        int n = 0;
        try (Sql.Bound q = sql.prepare(c)) {
            bind(q, query, names, under, query.after());
            try (ResultSet rs = q.statement.executeQuery()) {
                while (rs.next()) {
                    if (n == ids.length) {
                        ids = Arrays.copyOf(ids, n * 2);
                    }
                    ids[n++] = rs.getLong(1);
                }
            }
        }
        return new CarriedWalks.Walked(query.after(), Arrays.copyOf(ids, Math.min(n, most)), n <= most);
    }

    /**
     * The page after the query's cursor below {@code under} from the ids walks picked: the walk kept for it, or a new
     * one, and more after the last id of a walk that picked only part of its matches until the page is full.
     */
    private FindPage pageOfWalks(Connection c, FileQuery query, NameFilter names, long under) throws SQLException {
        Statements.ForIds<Long> rows = rendered(Statement.ROWS_BY_ID, query, NO_NAMES, false, 0,
                () -> Statements.ForIds.ofIds(ids -> Sql.render(ctx, ctx.select(Queries.entryColumns(t))
                        .from(t.files.as("r")).where(col("r", t.id).in(ids))
                        .and(matches("r", query, NO_NAMES, false)).orderBy(col("r", t.id))), ROWS_BY_ID));
        List<FileEntry> out = new ArrayList<>();
        try (ConnectionStatements prepared = new ConnectionStatements(c)) {
            DirectoryPaths paths = new DirectoryPaths(prepared, statements, under);
            for (FileQuery part = query; ; ) {
                CarriedWalks.Walked walked = carried.forPage(part, under);
                if (walked == null) {
                    walked = walk(c, part, names, under);
                    carried.keep(part, under, walked);
                }
                long filledAt = fill(prepared, part, names, rows, paths, walked, out);
                if (filledAt != 0) {
                    return new FindPage(out, filledAt, true);
                }
                long last = walked.lastAfter(part.after());
                if (walked.complete()) {
                    return new FindPage(out, last, false);
                }
                part = part.after(last);
            }
        }
    }

    /**
     * Adds to {@code out} the matches among the ids {@code walked} picked after the query's cursor, until the page is
     * full: their rows read again by id ({@code rows}) and matched again, each kept only if its directory still lies
     * below the question's ({@code paths}). Returns the id of the row that filled the page, or 0 if the ids ran out.
     */
    private long fill(ConnectionStatements prepared, FileQuery query, NameFilter names,
                      Statements.ForIds<Long> rows, DirectoryPaths paths, CarriedWalks.Walked walked,
                      List<FileEntry> out) throws SQLException {
        long[] ids = walked.ids();
        long[] chunk = new long[ROWS_BY_ID];
        for (int at = walked.firstAfter(query.after()); at < ids.length; at += ROWS_BY_ID) {
            int n = Math.min(ROWS_BY_ID, ids.length - at);
            System.arraycopy(ids, at, chunk, 0, n);
            List<StoredEntry> candidates = new ArrayList<>();
            Sql.Bound q = prepared.forIds(rows, chunk, n);
            bind(q, query, NO_NAMES, 0, 0);
            try (ResultSet rs = q.statement.executeQuery()) {
                while (rs.next()) {
                    StoredEntry stored = StoredEntry.read(rs);
                    if (names.matches(stored.row().name())) {
                        candidates.add(stored);
                    }
                }
            }
            // A row gone since the walk, or moved out of the directory, is not a match any more.
            long filledAt = addWithPaths(candidates, paths, true, out, query.limit());
            if (filledAt != 0) {
                return filledAt;
            }
        }
        return 0;
    }

    /**
     * Adds {@code candidates} to {@code out} with their paths until it holds {@code limit} entries, leaving out rows
     * whose directory is gone since they were read and, if {@code belowOnly}, rows whose directory does not lie below
     * the question's; returns the id of the row that filled the page, or 0.
     */
    private static long addWithPaths(List<StoredEntry> candidates, DirectoryPaths paths, boolean belowOnly,
                                     List<FileEntry> out, int limit) throws SQLException {
        Set<Long> parents = new LinkedHashSet<>();
        candidates.forEach(m -> parents.add(m.row().parent()));
        parents.remove(0L);
        paths.load(parents);
        for (StoredEntry m : candidates) {
            Row row = m.row();
            Path parent = row.parent() == 0 ? null : paths.of(row.parent());
            if (row.parent() != 0 && parent == null || belowOnly && !paths.isBelowTop(row.parent())) {
                continue;
            }
            out.add(m.at(parent == null ? Path.of(row.name()) : parent.resolve(row.name())));
            if (out.size() == limit) {
                return row.id();
            }
        }
        return 0;
    }

    private Reach reach(Connection c, FileQuery query, long under) throws SQLException {
        if (under == 0 || sole.holdsAllButItsAncestors(c, under)) {
            return Reach.TABLE;
        }
        // Without a range every row below is read: below a large directory the table's order is cheaper than a walk.
        return !hasRange(query) && large.isLarge(c, under) ? Reach.PASS : Reach.WALK;
    }

    private static boolean hasRange(FileQuery query) {
        return query.minSize() != null || query.maxSize() != null || query.modifiedAfter() != null
                || query.modifiedBefore() != null;
    }

    /**
     * The {@code statement} for {@code query}'s conditions (with names {@code names}, looked up in the name search
     * index if {@code indexed}) and {@code limit}, rendered by {@code render} the first time its shape is asked for.
     */
    @SuppressWarnings("unchecked")
    private <T> T rendered(Statement statement, FileQuery query, NameFilter names, boolean indexed, int limit,
                           Supplier<T> render) {
        Shape shape = new Shape(statement, conditions(query, names, indexed), limit);
        synchronized (rendered) {
            return (T) rendered.computeIfAbsent(shape, s -> render.get());
        }
    }

    /** A bit for each condition {@link #matches} states: the same bits, the same statement text. */
    private static int conditions(FileQuery query, NameFilter names, boolean indexed) {
        int bits = (query.kind() != null ? 1 : 0) | (query.minSize() != null ? 2 : 0)
                | (query.maxSize() != null ? 4 : 0) | (query.modifiedAfter() != null ? 8 : 0)
                | (query.modifiedBefore() != null ? 16 : 0) | (query.contentHash() != null ? 32 : 0);
        List<String> likes = names.sqlLikes();
        for (int i = 0; i < likes.size(); i++) {
            int like = indexed && indexable(likes.get(i)) ? 2 : 1;
            bits |= like << (6 + 2 * i);
        }
        return bits;
    }

    /** Whether the name search index narrows {@code names}: it is there and one of their runs is long enough. */
    private boolean searchIndexed(Connection c, NameFilter names) throws SQLException {
        return nameSearch.isPresent() && names.sqlLikes().stream().anyMatch(Finds::indexable)
                && nameSearch.get().exists(c, t.prefix);
    }

    /** A LIKE pattern {@code %run%} whose run the name search index can look up. */
    private static boolean indexable(String like) {
        return like.length() - 2 >= NameSearchIndex.MIN_RUN;
    }

    /** The query's conditions on the rows read through {@code alias}, live ones after {@code :after}. */
    private Condition matches(String alias, FileQuery query, NameFilter names, boolean indexed) {
        Condition where = col(alias, t.goneAt).isNull().and(col(alias, t.id).gt(param("after", Long.class)));
        for (int i = 0; i < names.sqlLikes().size(); i++) {
            Field<String> like = param("like" + i, String.class);
            where = where.and(indexed && indexable(names.sqlLikes().get(i))
                    ? nameSearch.get().nameContains(t.prefix, col(alias, t.id), col(alias, t.name), like)
                    : DSL.lower(col(alias, t.name).cast(SQLDataType.VARCHAR)).like(like));
        }
        if (query.kind() != null) {
            where = where.and(col(alias, t.kind).eq(param("kind", String.class)));
        }
        if (query.minSize() != null) {
            where = where.and(col(alias, t.size).ge(param("minSize", Long.class)));
        }
        if (query.maxSize() != null) {
            where = where.and(col(alias, t.size).le(param("maxSize", Long.class)));
        }
        if (query.modifiedAfter() != null) {
            where = where.and(col(alias, t.mtime).gt(param("mtimeAfter", Long.class)));
        }
        if (query.modifiedBefore() != null) {
            where = where.and(col(alias, t.mtime).lt(param("mtimeBefore", Long.class)));
        }
        if (query.contentHash() != null) {
            where = where.and(col(alias, t.contentHash).eq(param("hash", String.class)));
        }
        return where;
    }

    private static void bind(Sql.Bound q, FileQuery query, NameFilter names, long under, long after)
            throws SQLException {
        q.set("after", after);
        for (int i = 0; i < names.sqlLikes().size(); i++) {
            q.set("like" + i, names.sqlLikes().get(i));
        }
        if (under != 0) {
            q.set("top", under);
        }
        if (query.kind() != null) {
            q.set("kind", query.kind().name());
        }
        if (query.minSize() != null) {
            q.set("minSize", query.minSize());
        }
        if (query.maxSize() != null) {
            q.set("maxSize", query.maxSize());
        }
        if (query.modifiedAfter() != null) {
            q.set("mtimeAfter", nanos(query.modifiedAfter()));
        }
        if (query.modifiedBefore() != null) {
            q.set("mtimeBefore", nanos(query.modifiedBefore()));
        }
        if (query.contentHash() != null) {
            q.set("hash", query.contentHash());
        }
    }

    /** Saturates: an instant beyond the nanosecond range is beyond every recorded time. */
    private static long nanos(java.time.Instant at) {
        try {
            return Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000_000L), at.getNano());
        } catch (ArithmeticException e) {
            return at.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    private static <T> Field<T> col(String alias, Field<T> column) {
        return field(name(alias, column.getName()), column.getType());
    }
}
