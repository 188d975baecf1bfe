package io.fsindex.api;

import java.nio.file.Path;

/**
 * A snapshot of a running scan's progress. Counts only grow while the scan runs.
 *
 * @param directories directories listed so far
 * @param entries     entries recorded so far (added, updated or unchanged)
 * @param added       rows inserted
 * @param updated     rows whose recorded attributes changed
 * @param skipped     entries left alone because a newer scan covers them
 * @param errors      problems reported so far
 * @param current     the directory most recently listed, or {@code null} before the first
 */
public record ScanProgress(long directories, long entries, long added, long updated, long skipped, long errors,
                           Path current) {
}
