package io.fsindex.core;

import io.fsindex.api.DirectorySize;
import io.fsindex.api.DuplicateGroup;
import io.fsindex.api.FileEntry;
import io.fsindex.api.FileQuery;
import io.fsindex.api.FindPage;
import io.fsindex.api.IndexInfo;
import io.fsindex.api.IndexReader;
import io.fsindex.core.query.IndexReads;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What {@link FsIndex.Builder#buildReader()} returns: only the reading half of an index opened read-only. A separate
 * class rather than the {@link FsIndex} itself, so a cast cannot reach {@code scan} (which its read-only connections
 * would refuse anyway).
 */
final class ReadOnlyIndex implements IndexReader {
    private final IndexReads reads;
    private final FsIndex index;

    /** The reads of {@code index}, opened read-only; closing this closes it. */
    ReadOnlyIndex(IndexReads reads, FsIndex index) {
        this.reads = reads;
        this.index = index;
    }

    /** The index opened read-only behind this reader. */
    FsIndex index() {
        return index;
    }

    /** Throws if closed, as {@link FsIndex} does. */
    private IndexReads reads() {
        index.requireOpen();
        return reads;
    }

    @Override
    public Optional<FileEntry> lookup(Path path) {
        return reads().lookup(path);
    }

    @Override
    public List<FileEntry> children(Path path) {
        return reads().children(path);
    }

    @Override
    public Optional<FileEntry> lookup(long id) {
        return reads().lookup(id);
    }

    @Override
    public List<FileEntry> children(Path path, String afterName, int limit) {
        IndexReads.requirePositive(limit);
        return reads().children(path, afterName, limit);
    }

    @Override
    public FindPage find(FileQuery query) {
        java.util.Objects.requireNonNull(query, "query");
        return reads().find(query);
    }

    @Override
    public Optional<DirectorySize> directorySize(Path path) {
        return reads().directorySize(path);
    }

    @Override
    public List<DirectorySize> largestSubdirectories(Path path, int limit) {
        IndexReads.requirePositive(limit);
        return reads().largestSubdirectories(path, limit);
    }

    @Override
    public List<DuplicateGroup> duplicates(Path under, int limit) {
        IndexReads.requirePositive(limit);
        return reads().duplicates(under, limit);
    }

    @Override
    public IndexInfo info(int recentScans) {
        return reads().info(recentScans, java.util.Set.of());
    }

    @Override
    public String databaseName() {
        return index.databaseName();
    }

    @Override
    public io.fsindex.api.ChangeBatch changesSince(long cursor, int limit) {
        return reads().changesSince(cursor, limit);
    }

    @Override
    public long changeFeedEnd() {
        return reads().changeFeedEnd();
    }

    @Override
    public void close() {
        index.close();
    }

    @Override
    public String toString() {
        return "read-only " + index.databaseName() + " index";
    }
}
