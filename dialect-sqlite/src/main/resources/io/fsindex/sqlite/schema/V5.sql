-- fsindex schema version 5 for SQLite: scoped scans. One row per directory whose rules or device fsindex keeps:
-- a root with stored rules (rules, fsindex's text form, see ScanScope), a scanned root, or a mount point a scan
-- found below its root (device). path_hash is the hex SHA-256 of the real path's UTF-8 bytes, a key of fixed size
-- on every engine; path is the real path itself.
CREATE TABLE ${prefix}scopes (
    path_hash  TEXT    NOT NULL PRIMARY KEY CHECK (length(path_hash) = 64 AND path_hash NOT GLOB '*[^0-9a-f]*'),
    path       TEXT    NOT NULL CHECK (length(path) > 0),
    rules      TEXT,
    device     INTEGER,
    updated_at INTEGER NOT NULL
);

UPDATE ${prefix}schema SET version = 5;
