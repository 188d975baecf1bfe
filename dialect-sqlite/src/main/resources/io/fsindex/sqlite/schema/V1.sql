-- fsindex schema version 1 for SQLite. ${prefix} is the table prefix (default fsindex_).
-- AUTOINCREMENT on both tables: SQLite then never hands out an id again, even after the newest rows are deleted,
-- which the scan protocol relies on (a stale scan must never mistake a new row for a deleted one).

CREATE TABLE ${prefix}scans (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    root        TEXT    NOT NULL,
    state       TEXT    NOT NULL CHECK (state IN ('RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED')),
    started_at  INTEGER NOT NULL,
    finished_at INTEGER,
    added       INTEGER NOT NULL DEFAULT 0 CHECK (added >= 0),
    updated     INTEGER NOT NULL DEFAULT 0 CHECK (updated >= 0),
    deleted     INTEGER NOT NULL DEFAULT 0 CHECK (deleted >= 0),
    errors      INTEGER NOT NULL DEFAULT 0 CHECK (errors >= 0),
    message     TEXT
);

-- name is TEXT with SQLite's default BINARY collation: compared byte for byte, case-sensitive, never trimmed.
CREATE TABLE ${prefix}files (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    parent      INTEGER REFERENCES ${prefix}files (id) ON DELETE CASCADE,
    name        TEXT    NOT NULL CHECK (name <> ''),
    -- Written as a chain of ORs, not IN (...): SQLite evaluates an IN list of more than two values in a CHECK by
    -- building a temporary table for every row, which cost about 0.7 s per million inserted rows.
    kind        TEXT    NOT NULL CHECK (kind = 'FILE' OR kind = 'DIRECTORY' OR kind = 'SYMLINK' OR kind = 'FIFO'
                                        OR kind = 'SOCKET' OR kind = 'CHAR_DEVICE' OR kind = 'BLOCK_DEVICE'
                                        OR kind = 'OTHER'),
    size        INTEGER NOT NULL DEFAULT 0,
    mtime       INTEGER NOT NULL DEFAULT 0,
    link_target TEXT,
    scan_id     INTEGER NOT NULL REFERENCES ${prefix}scans (id),
    listed_by   INTEGER NOT NULL DEFAULT 0 CHECK (listed_by >= 0),
    stale       INTEGER NOT NULL DEFAULT 0 CHECK (stale IN (0, 1)),
    UNIQUE (parent, name)
);

-- UNIQUE (parent, name) lets any number of NULL parents through; this keeps the top level unique too.
CREATE UNIQUE INDEX ${prefix}files_top_level ON ${prefix}files (name) WHERE parent IS NULL;

-- The end-of-scan sweep finds a scan's stale rows without reading the table.
CREATE INDEX ${prefix}files_stale ON ${prefix}files (scan_id) WHERE stale = 1;

CREATE TABLE ${prefix}schema (
    version INTEGER NOT NULL CHECK (version > 0)
);

INSERT INTO ${prefix}schema (version) VALUES (1);
