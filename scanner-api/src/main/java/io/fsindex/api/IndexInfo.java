package io.fsindex.api;

import java.util.List;

/**
 * A summary of an index, as {@code fsindex info} prints it.
 *
 * @param database      the database engine's name and product version
 * @param schemaVersion the schema version the database holds
 * @param files         number of rows in the file table
 * @param directories   how many of them are directories
 * @param recentScans   the most recent scans, newest first
 */
public record IndexInfo(String database, int schemaVersion, long files, long directories,
                        List<ScanRecord> recentScans) {
    /**
     * Copies {@code recentScans}, so the summary cannot change afterwards.
     *
     * @param database      the database engine's name and product version
     * @param schemaVersion the schema version the database holds
     * @param files         number of rows in the file table
     * @param directories   how many of them are directories
     * @param recentScans   the most recent scans, newest first
     */
    public IndexInfo {
        recentScans = List.copyOf(recentScans);
    }
}
