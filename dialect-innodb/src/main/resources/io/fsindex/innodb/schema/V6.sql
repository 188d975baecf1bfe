-- fsindex schema version 6 for MySQL and MariaDB: the counter ordered scan ids are taken from
-- (ScanIdAllocation.ORDERED). One row, locked by each scan's start until it commits, so ids grow in start order even
-- where the engine's own allocator does not keep that order across nodes (TiDB caches AUTO_INCREMENT ranges per
-- server). It starts at the largest scan id so far: ids are never handed out twice.
CREATE TABLE ${prefix}scan_ids (
    id      INT    NOT NULL CHECK (id = 1),
    last_id BIGINT NOT NULL CHECK (last_id >= 0),
    PRIMARY KEY (id)
) ENGINE = InnoDB;

INSERT INTO ${prefix}scan_ids (id, last_id) SELECT 1, COALESCE(MAX(id), 0) FROM ${prefix}scans;

UPDATE ${prefix}schema SET version = 6;
