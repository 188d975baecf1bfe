-- fsindex schema version 6 for SQLite: the counter ordered scan ids are taken from (ScanIdAllocation.ORDERED). One
-- row, moved by each scan's start in its write transaction (SQLite serialises writers), so ids grow in start order
-- as on every engine. It starts at the largest scan id so far: ids are never handed out twice.
CREATE TABLE ${prefix}scan_ids (
    id      INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    last_id INTEGER NOT NULL CHECK (last_id >= 0)
);

INSERT INTO ${prefix}scan_ids (id, last_id) SELECT 1, COALESCE(MAX(id), 0) FROM ${prefix}scans;

UPDATE ${prefix}schema SET version = 6;
