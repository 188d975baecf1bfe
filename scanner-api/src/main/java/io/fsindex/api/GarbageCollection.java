package io.fsindex.api;

/**
 * What one run of the content garbage collector did ({@code FsIndex.collectGarbage}).
 *
 * @param examined   content rows looked at
 * @param referenced rows that something (a file row or an application's own table) still references
 * @param marked     unreferenced rows kept for now: marked unused, or marked earlier but still within the grace period
 * @param deleted    rows deleted: unreferenced and marked for longer than the grace period
 */
public record GarbageCollection(long examined, long referenced, long marked, long deleted) {
}
