-- fsindex schema version 5 for PostgreSQL: scoped scans. One row per directory whose rules or device fsindex keeps:
-- a root with stored rules (rules, fsindex's text form, see ScanScope), a scanned root, or a mount point a scan
-- found below its root (device). path_hash is the hex SHA-256 of the real path's UTF-8 bytes, a key of fixed size
-- on every engine; path is the real path itself.
CREATE TABLE ${prefix}scopes (
    path_hash  CHAR(64) NOT NULL PRIMARY KEY CHECK (path_hash ~ '^[0-9a-f]{64}$'),
    path       TEXT     NOT NULL CHECK (length(path) > 0),
    rules      TEXT,
    device     BIGINT,
    updated_at BIGINT   NOT NULL
);

UPDATE ${prefix}schema SET version = 5;
