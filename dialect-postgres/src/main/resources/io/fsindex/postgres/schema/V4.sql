-- fsindex schema version 4 for PostgreSQL: a running scan shows it is alive, and a scan whose process is gone is
-- recorded ABANDONED.
-- heartbeat_at: when the scan last showed life (millis). A running scan refreshes it every quarter of the lease; a
-- RUNNING scan whose heartbeat is older than the lease has lost its process or its connection to the database.
ALTER TABLE ${prefix}scans ADD COLUMN heartbeat_at BIGINT;
UPDATE ${prefix}scans SET heartbeat_at = COALESCE(finished_at, started_at);

-- V1's check on state has a name PostgreSQL chose (and may have truncated for a long prefix): found by its text.
DO $$
DECLARE
    c TEXT;
BEGIN
    FOR c IN SELECT conname FROM pg_constraint
             WHERE conrelid = '${prefix}scans'::regclass AND contype = 'c'
               AND pg_get_constraintdef(oid) LIKE '%CANCELLED%'
    LOOP
        EXECUTE format('ALTER TABLE ${prefix}scans DROP CONSTRAINT %I', c);
    END LOOP;
END $$;

ALTER TABLE ${prefix}scans ADD CONSTRAINT ${prefix}scans_state
    CHECK (state IN ('RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'ABANDONED'));

UPDATE ${prefix}schema SET version = 4;
