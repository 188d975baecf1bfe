package io.fsindex.api;

import java.time.Instant;

/**
 * One scan as recorded in the index.
 *
 * @param id         the scan id
 * @param root       the scanned path
 * @param state      {@code RUNNING}, {@code COMPLETED}, {@code FAILED}, {@code CANCELLED} or {@code ABANDONED}.
 *                   A running scan refreshes a heartbeat in its row; one whose heartbeat is older than the scan
 *                   lease ({@code FsIndex.Builder.scanLease}, 1 minute by default) lost its process (killed, power
 *                   lost) or its connection to the database, and is {@code ABANDONED}: the next scan's start records
 *                   it so, and reads show it so before anyone has recorded it (then its message ends with "not yet
 *                   recorded"). A scan that was only stalled longer than the lease shows {@code RUNNING} again with
 *                   its next heartbeat and records its real outcome when it ends. What an abandoned scan left in the
 *                   index is put right by the next scan of its root.
 * @param startedAt  when it started
 * @param finishedAt when it ended, or {@code null} while running; for {@code ABANDONED}, when it last showed life
 * @param added      rows it inserted
 * @param updated    rows it changed
 * @param moved      rows it moved to a new place, keeping their ids
 * @param deleted    rows it removed
 * @param errors     problems it reported
 * @param message    why it failed, was cancelled or abandoned, or {@code null}
 */
public record ScanRecord(long id, String root, String state, Instant startedAt, Instant finishedAt, long added,
                         long updated, long moved, long deleted, long errors, String message) {
}
