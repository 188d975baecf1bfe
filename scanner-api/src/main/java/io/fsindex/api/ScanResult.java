package io.fsindex.api;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What one completed scan did.
 *
 * @param scanId    the scan's id; ids only grow, so a larger id is a scan that started later
 * @param root      the scanned path, as stored (absolute, real path)
 * @param added     rows inserted for entries new to the index
 * @param modified  rows whose recorded attributes changed
 * @param moved     rows renamed or moved to a new place, keeping their ids (a moved directory counts once)
 * @param unchanged rows confirmed as they were
 * @param deleted   entries that left the index because they are gone, descendants included
 * @param skipped   entries left alone because a newer scan covers them (that scan records them instead)
 * @param errors    what could not be read, each with its path and reason; those rows were kept as they were
 * @param duration  wall-clock time of the scan
 */
public record ScanResult(long scanId, Path root, long added, long modified, long moved, long unchanged, long deleted,
                         long skipped, List<ScanError> errors, Duration duration) {
    /**
     * Copies {@code errors}, so the result cannot change afterwards.
     *
     * @param scanId    the scan's id; ids only grow, so a larger id is a scan that started later
     * @param root      the scanned path, as stored (absolute, real path)
     * @param added     rows inserted for entries new to the index
     * @param modified  rows whose recorded attributes changed
     * @param moved     rows renamed or moved to a new place, keeping their ids (a moved directory counts once)
     * @param unchanged rows confirmed as they were
     * @param deleted   entries that left the index because they are gone, descendants included
     * @param skipped   entries left alone because a newer scan covers them (that scan records them instead)
     * @param errors    what could not be read, each with its path and reason; those rows were kept as they were
     * @param duration  wall-clock time of the scan
     */
    public ScanResult {
        errors = List.copyOf(errors);
    }

    /** {@return true if every entry under the root was read without error} */
    public boolean isClean() {
        return errors.isEmpty();
    }
}
