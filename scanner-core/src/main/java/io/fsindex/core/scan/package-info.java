/**
 * Internal, not API: the scan. {@code Scan} runs one scan (root, trunk, result), {@code Walk} lists the tree on a
 * walker thread and applies the listings on the scan thread, {@code NioWalker} reads the disk, {@code ScanLifecycle}
 * keeps the scans table (start, heartbeat, outcome). Public types here other than {@code NioWalker} and
 * {@code ListingPause} may change in any release.
 */
package io.fsindex.core.scan;
