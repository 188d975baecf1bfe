package io.fsindex.core;

/**
 * Where a new scan's id comes from. The scan protocol needs ids that grow in the order scans start: of two scans
 * whose work overlaps, the one with the larger id wins ("a newer scan always wins"). A single server's own allocator
 * keeps that order, but an engine that caches ids per connection or per node (YugabyteDB's sequences, TiDB's
 * {@code AUTO_INCREMENT}) hands a scan that starts later a smaller id than one started before it.
 */
public enum ScanIdAllocation {
    /**
     * The id is the next value of a counter row ({@code <prefix>scan_ids}, schema version 6), which each scan's start
     * locks until it commits, so ids follow start order on any engine; the default. Costs one row lock per scan
     * start, not per file.
     */
    ORDERED,
    /**
     * The engine's own allocator ({@code IDENTITY}, {@code AUTO_INCREMENT}, {@code AUTOINCREMENT}), as before
     * schema version 6: in start order on a single PostgreSQL, MySQL, MariaDB or SQLite server with the tables
     * fsindex creates, not on engines that cache ids per connection or per node. Every process writing one index
     * must use the same allocation.
     */
    NATIVE
}
