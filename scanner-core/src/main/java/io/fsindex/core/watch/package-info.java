/**
 * Internal, not API: watching a tree ({@code FsIndex.watch}). {@code TreeWatcher} turns the JDK
 * {@code WatchService}'s events into directory scans and falls back to subtree scans where events were lost or
 * cannot be had; {@code PendingWork} coalesces events per directory; {@code ScanRunner} runs independent directories'
 * scans in parallel; {@code Registration} and {@code DirectoryRegistry} register directories (not those the stored
 * rules exclude); {@code WatchReports} reports what the watch fell back on. The API types are
 * {@code io.fsindex.api.IndexWatch}, {@code WatchOptions} and {@code WatchState}. Public types here may change in
 * any release.
 */
package io.fsindex.core.watch;
