package io.fsindex.testkit;

import io.fsindex.api.FileEntry;
import io.fsindex.api.FileQuery;
import io.fsindex.api.FindPage;
import io.fsindex.api.IndexReader;
import io.fsindex.core.FsIndex;
import io.fsindex.core.SchemaScripts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the conformance suites share: the database under test, a temporary directory for trees, and indexes with
 * table names of their own that are closed after each test.
 */
public abstract class IndexTest {

    /** The database under test; called once per test, so return a shared instance. */
    protected abstract TestDatabase database();

    @TempDir
    protected Path tmp;

    private final List<FsIndex> opened = new ArrayList<>();
    private final List<IndexReader> openedReaders = new ArrayList<>();
    private String prefix;

    /** Opens an index on {@link #database()} with table names no other test uses. */
    protected FsIndex openIndex() {
        return openIndex(b -> b);
    }

    /** Like {@link #openIndex()}, with further settings applied to the builder. */
    protected FsIndex openIndex(java.util.function.UnaryOperator<FsIndex.Builder> configure) {
        prefix = TestDatabase.freshPrefix();
        return track(configure.apply(database().builder(prefix)).build());
    }

    /** The table prefix of the index {@link #openIndex()} opened last. */
    protected String prefix() {
        return prefix;
    }

    /**
     * Creates tables with names no other test uses at schema {@code version}, as an fsindex of that version left
     * them, and returns plain JDBC on them; {@link #prefix()} names them and {@link #reopenIndex()} opens (and so
     * upgrades) them.
     */
    protected RawIndex indexAtSchemaVersion(int version) throws SQLException {
        prefix = TestDatabase.freshPrefix();
        SchemaScripts.apply(database().builder(prefix), 1, version);
        return new RawIndex(database(), prefix);
    }

    /** Opens the tables {@link #prefix()} names once more, as another process would, with default settings. */
    protected FsIndex reopenIndex() {
        return track(database().builder(prefix).build());
    }

    /** Remembers an index so it is closed after the test. */
    protected FsIndex track(FsIndex index) {
        opened.add(index);
        return index;
    }

    /** Remembers a reader so it is closed after the test. */
    protected IndexReader trackReader(IndexReader reader) {
        openedReaders.add(reader);
        return reader;
    }

    /**
     * The index {@link #openIndex()} opened last, and a read-only reader of its tables (closed after the test): a
     * question must get the same answer from both.
     */
    protected List<IndexReader> readers(FsIndex index) {
        return List.of(index, trackReader(database().builder(prefix()).buildReader()));
    }

    @AfterEach
    void closeIndexes() {
        openedReaders.forEach(IndexReader::close);
        opened.forEach(FsIndex::close);
    }

    /**
     * Creates a tree under the temporary directory (see {@link Trees#create}) and returns its root as a real path,
     * the form scans store.
     */
    protected Path tree(String... paths) {
        Path root = tmp.resolve("tree");
        Trees.create(root, "./");
        Trees.create(root, paths);
        try {
            return root.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The entries of page {@code first} and of every page {@code find} returns after it, in order. */
    protected static List<FileEntry> withPagesAfter(FindPage first, FileQuery query,
            Function<FileQuery, FindPage> find) {
        List<FileEntry> all = new ArrayList<>(first.entries());
        for (FindPage page = first; page.more(); ) {
            page = find.apply(query.after(page.cursor()));
            all.addAll(page.entries());
        }
        return all;
    }
}
