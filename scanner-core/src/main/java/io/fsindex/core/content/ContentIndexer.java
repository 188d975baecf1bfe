package io.fsindex.core.content;

import io.fsindex.api.ContentHashing;
import io.fsindex.api.FileKind;
import io.fsindex.api.FileStat;
import io.fsindex.api.FsIndexException;
import io.fsindex.api.ScanError;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Content hashing for one scan: after a directory's listing is committed, reads and hashes its files that still lack
 * the requested values, outside any write transaction, and stores the values only if the file did not change while
 * it was read. A file's stat is taken before and after reading and must match both what the row records and each
 * other; the store is conditional on the row still recording that size and mtime.
 */
public final class ContentIndexer {
    /** How the scan stats a file: as the walker does, following links where the scan follows them. */
    public interface Stat {
        FileStat of(Path path) throws IOException;
    }

    private final ContentStore store;
    private final boolean full;
    private final Stat stat;
    private final Consumer<ScanError> report;
    private final ContentHasher hasher = new ContentHasher();

    public ContentIndexer(ContentStore store, ContentHashing mode, Stat stat, Consumer<ScanError> report) {
        if (mode == ContentHashing.OFF) {
            throw new IllegalArgumentException("no content indexer is needed when hashing is off");
        }
        this.store = store;
        this.full = mode == ContentHashing.FULL;
        this.stat = stat;
        this.report = report;
    }

    /** Hashes the files of directory {@code dir} (row id {@code dirId}) that lack a value, page by page. */
    public void directoryApplied(long dirId, Path dir) {
        try {
            String after = "";
            while (true) {
                List<ContentStore.Unhashed> page = store.unhashed(dirId, after, full);
                if (page.isEmpty()) {
                    return;
                }
                List<ContentStore.Hashed> hashed = new ArrayList<>(page.size());
                for (ContentStore.Unhashed row : page) {
                    ContentStore.Hashed h = hash(dir.resolve(row.name()), row);
                    if (h != null) {
                        hashed.add(h);
                    }
                    after = row.name();
                }
                store.store(hashed);
                if (page.size() < ContentStatements.PAGE) {
                    return;
                }
            }
        } catch (SQLException e) {
            throw new FsIndexException("error storing content hashes below " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Reads one file; null if it changed (since it was listed, or while it was read) or could not be read. */
    private ContentStore.Hashed hash(Path path, ContentStore.Unhashed row) {
        try {
            FileStat before = stat.of(path);
            if (!matches(before, row.size(), row.mtime())) {
                return null;                 // changed since the listing; the next scan records and hashes it
            }
            ContentHasher.Hashes h = hasher.hash(path, row.size(), full);
            FileStat after = stat.of(path);
            if (!matches(after, before.size(), before.mtimeNanos())) {
                return null;                 // changed while it was read: what was read may be half old, half new
            }
            return new ContentStore.Hashed(row.id(), row.size(), row.mtime(), h.fingerprint(), h.full());
        } catch (ContentHasher.ChangedWhileReading | NoSuchFileException gone) {
            return null;
        } catch (AccessDeniedException e) {
            report.accept(new ScanError(path, ScanError.Reason.ACCESS_DENIED,
                    "cannot read the file's content: permission denied; no hash stored"));
        } catch (IOException e) {
            report.accept(new ScanError(path, ScanError.Reason.IO_ERROR,
                    "cannot read the file's content (" + e + "); no hash stored"));
        }
        return null;
    }

    private static boolean matches(FileStat s, long size, long mtime) {
        return s.kind() == FileKind.FILE && s.size() == size && s.mtimeNanos() == mtime;
    }
}
