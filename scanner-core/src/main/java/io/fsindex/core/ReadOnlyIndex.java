package io.fsindex.core;

import io.fsindex.api.DirectorySize;
import io.fsindex.api.DuplicateGroup;
import io.fsindex.api.FileEntry;
import io.fsindex.api.FileQuery;
import io.fsindex.api.FindPage;
import io.fsindex.api.IndexInfo;
import io.fsindex.api.IndexReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What {@link FsIndex.Builder#buildReader()} returns: only the reading half of an index opened read-only. A separate
 * class rather than the {@link FsIndex} itself, so a cast cannot reach {@code scan} (which its read-only connections
 * would refuse anyway).
 */
final class ReadOnlyIndex implements IndexReader {
    private final FsIndex index;

    ReadOnlyIndex(FsIndex index) {
        this.index = index;
    }

    @Override
    public Optional<FileEntry> lookup(Path path) {
        return index.lookup(path);
    }

    @Override
    public List<FileEntry> children(Path path) {
        return index.children(path);
    }

    @Override
    public Optional<FileEntry> lookup(long id) {
        return index.lookup(id);
    }

    @Override
    public List<FileEntry> children(Path path, String afterName, int limit) {
        return index.children(path, afterName, limit);
    }

    @Override
    public FindPage find(FileQuery query) {
        return index.find(query);
    }

    @Override
    public Optional<DirectorySize> directorySize(Path path) {
        return index.directorySize(path);
    }

    @Override
    public List<DirectorySize> largestSubdirectories(Path path, int limit) {
        return index.largestSubdirectories(path, limit);
    }

    @Override
    public List<DuplicateGroup> duplicates(Path under, int limit) {
        return index.duplicates(under, limit);
    }

    @Override
    public IndexInfo info(int recentScans) {
        return index.info(recentScans);
    }

    @Override
    public String databaseName() {
        return index.databaseName();
    }

    @Override
    public io.fsindex.api.ChangeBatch changesSince(long cursor, int limit) {
        return index.changesSince(cursor, limit);
    }

    @Override
    public long changeFeedEnd() {
        return index.changeFeedEnd();
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
