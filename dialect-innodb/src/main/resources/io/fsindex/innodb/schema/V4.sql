-- fsindex schema version 4 for MySQL and MariaDB: a running scan shows it is alive, and a scan whose process is gone
-- is recorded ABANDONED.
-- heartbeat_at: when the scan last showed life (millis). A running scan refreshes it every quarter of the lease; a
-- RUNNING scan whose heartbeat is older than the lease has lost its process or its connection to the database.
ALTER TABLE ${prefix}scans ADD COLUMN heartbeat_at BIGINT;
UPDATE ${prefix}scans SET heartbeat_at = COALESCE(finished_at, started_at);

-- V1's check on state: MariaDB keeps it as the column's own constraint, which redefining the column drops; MySQL
-- keeps it as a table constraint with a generated name, found by its text and dropped by name.
ALTER TABLE ${prefix}scans MODIFY COLUMN state VARCHAR(16) CHARACTER SET ascii NOT NULL;
SET @fsindex_v4_drop = (SELECT CONCAT('ALTER TABLE ${prefix}scans DROP CONSTRAINT `', cc.CONSTRAINT_NAME, '`')
    FROM information_schema.CHECK_CONSTRAINTS cc
    JOIN information_schema.TABLE_CONSTRAINTS tc
      ON tc.CONSTRAINT_SCHEMA = cc.CONSTRAINT_SCHEMA AND tc.CONSTRAINT_NAME = cc.CONSTRAINT_NAME
    WHERE tc.CONSTRAINT_SCHEMA = DATABASE() AND tc.TABLE_NAME = '${prefix}scans' AND tc.CONSTRAINT_TYPE = 'CHECK'
      AND cc.CHECK_CLAUSE LIKE '%CANCELLED%'
    LIMIT 1);
SET @fsindex_v4_drop = COALESCE(@fsindex_v4_drop, 'DO 0');
PREPARE fsindex_v4_drop FROM @fsindex_v4_drop;
EXECUTE fsindex_v4_drop;
DEALLOCATE PREPARE fsindex_v4_drop;

ALTER TABLE ${prefix}scans ADD CONSTRAINT ${prefix}scans_state
    CHECK (state IN ('RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'ABANDONED'));

UPDATE ${prefix}schema SET version = 4;
