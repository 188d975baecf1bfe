-- fsindex schema version 4 for SQLite: a running scan shows it is alive, and a scan whose process is gone is
-- recorded ABANDONED.
-- heartbeat_at: when the scan last showed life (millis). A running scan refreshes it every quarter of the lease; a
-- RUNNING scan whose heartbeat is older than the lease has lost its process or its connection to the database.
ALTER TABLE ${prefix}scans ADD COLUMN heartbeat_at INTEGER;

-- SQLite cannot change a CHECK constraint in place: state is rebuilt as a new column with the wider check (the
-- documented ALTER TABLE path, unlike editing sqlite_schema), then the old column is dropped. The scans table holds
-- one row per scan, so the rewrite is small.
ALTER TABLE ${prefix}scans RENAME COLUMN state TO state_v3;
ALTER TABLE ${prefix}scans ADD COLUMN state TEXT NOT NULL DEFAULT 'RUNNING'
    CHECK (state IN ('RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'ABANDONED'));
UPDATE ${prefix}scans SET state = state_v3, heartbeat_at = COALESCE(finished_at, started_at);
ALTER TABLE ${prefix}scans DROP COLUMN state_v3;

UPDATE ${prefix}schema SET version = 4;
