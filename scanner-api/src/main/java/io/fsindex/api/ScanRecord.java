package io.fsindex.api;

import java.time.Instant;

/**
 * One scan as recorded in the index.
 *
 * @param id         the scan id
 * @param root       the scanned path
 * @param state      {@code RUNNING}, {@code COMPLETED}, {@code FAILED} or {@code CANCELLED}; a scan whose process
 *                   died stays {@code RUNNING}
 * @param startedAt  when it started
 * @param finishedAt when it ended, or {@code null}
 * @param added      rows it inserted
 * @param updated    rows it changed
 * @param moved      rows it moved to a new place, keeping their ids
 * @param deleted    rows it removed
 * @param errors     problems it reported
 * @param message    why it failed, or {@code null}
 */
public record ScanRecord(long id, String root, String state, Instant startedAt, Instant finishedAt, long added,
                         long updated, long moved, long deleted, long errors, String message) {
}
