package io.fsindex.spring;

import io.fsindex.api.IndexInfo;
import io.fsindex.api.ScanRecord;
import io.fsindex.core.FsIndex;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * Reports the index {@code UP} with its database, schema version, row counts and the number of scans running among
 * the recent ones, and {@code DOWN} with the error when its database cannot be read (or the index is closed). Each
 * check reads the index's summary ({@link FsIndex#info}), which counts the file rows: on an index of many millions of
 * files, space the checks out or turn this indicator off.
 */
public class FsIndexHealthIndicator implements HealthIndicator {
    /** How many of the newest scans are looked at for running ones. */
    static final int RECENT_SCANS = 20;

    private final FsIndex index;

    /**
     * Checks {@code index}.
     *
     * @param index the index to check
     */
    public FsIndexHealthIndicator(FsIndex index) {
        this.index = index;
    }

    @Override
    public Health health() {
        IndexInfo info;
        try {
            info = index.info(RECENT_SCANS);
        } catch (RuntimeException e) {
            // FsIndexException when the database cannot be read, IllegalStateException once closed: both mean DOWN
            return Health.down(e).withDetail("database", index.databaseName()).build();
        }
        long running = info.recentScans().stream().map(ScanRecord::state).filter("RUNNING"::equals).count();
        return Health.up()
                .withDetail("database", info.database())
                .withDetail("schemaVersion", info.schemaVersion())
                .withDetail("files", info.files())
                .withDetail("directories", info.directories())
                .withDetail("runningScans", running)
                .build();
    }
}
