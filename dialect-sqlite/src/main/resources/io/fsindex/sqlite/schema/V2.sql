-- fsindex schema version 2 for SQLite: identities for moves, orphans, content hashes, the change feed.
-- Column meanings and who may write what: README, sections "Schema" and "Store contract".

-- Content-addressed blobs: one row per distinct content hash. Files reference them with ON DELETE RESTRICT, so a
-- content cannot be deleted while anything (fsindex's files or an application's own table) still references it.
-- unused_since is the collector's mark: when it last found the content unreferenced (NULL: referenced then).
CREATE TABLE ${prefix}contents (
    hash         TEXT    NOT NULL PRIMARY KEY CHECK (length(hash) = 64 AND hash NOT GLOB '*[^0-9a-f]*'),
    size         INTEGER NOT NULL CHECK (size >= 0),
    created_at   INTEGER NOT NULL,
    unused_since INTEGER
);

-- file_key: the filesystem's identity of the entry (device and inode), which a move keeps, as a 64-bit hash: an
-- integer keeps its index small (a candidate it finds is checked on kind, mtime and size besides).
-- gone_at: when a completed scan found the entry gone; the row is kept as an orphan (invisible to lookups) so that a
-- later scan finding the same identity elsewhere moves it instead of inserting a new row, until the retention ends.
ALTER TABLE ${prefix}files ADD COLUMN file_key INTEGER;
ALTER TABLE ${prefix}files ADD COLUMN gone_at INTEGER CHECK (gone_at > 0);
ALTER TABLE ${prefix}files ADD COLUMN fingerprint TEXT
    CHECK (length(fingerprint) = 64 AND fingerprint NOT GLOB '*[^0-9a-f]*');
-- content_hash also carries the store contract's table-wide checks (README, "Store contract"), because SQLite cannot add
-- a table constraint to an existing table: V1 left size unchecked; only a file has content, so only a FILE row may
-- carry a fingerprint or a content hash. (SQLite checks them against the rows already there.)
ALTER TABLE ${prefix}files ADD COLUMN content_hash TEXT REFERENCES ${prefix}contents (hash) ON DELETE RESTRICT
    CONSTRAINT ${prefix}files_size CHECK (size >= 0)
    CONSTRAINT ${prefix}files_hashed_file CHECK ((fingerprint IS NULL AND content_hash IS NULL) OR kind = 'FILE');

CREATE INDEX ${prefix}files_file_key ON ${prefix}files (file_key) WHERE file_key IS NOT NULL;
CREATE INDEX ${prefix}files_gone ON ${prefix}files (gone_at) WHERE gone_at IS NOT NULL;
-- Where the platform gives no file identity, a moved file is recognised by its fingerprint instead.
CREATE INDEX ${prefix}files_fingerprint ON ${prefix}files (fingerprint) WHERE fingerprint IS NOT NULL;
CREATE INDEX ${prefix}files_content ON ${prefix}files (content_hash) WHERE content_hash IS NOT NULL;

ALTER TABLE ${prefix}scans ADD COLUMN moved INTEGER NOT NULL DEFAULT 0 CHECK (moved >= 0);

-- Where changes happened: the path a directory had when entries in it changed, written once per transaction and
-- directory, so that a change row holds a reference and a name instead of a whole path. Its id is the number of the
-- first change that refers to it.
CREATE TABLE ${prefix}change_dirs (
    id   INTEGER NOT NULL PRIMARY KEY CHECK (id > 0),
    path TEXT    NOT NULL CHECK (path <> '')
);

-- The change feed: one row per committed change, numbered without gaps in commit order (see ${prefix}feed). The
-- entry's path is change_dirs.path of dir, then name; a top-level entry (dir NULL) has its whole path as name.
CREATE TABLE ${prefix}changes (
    seq           INTEGER NOT NULL PRIMARY KEY CHECK (seq > 0),
    entry         INTEGER NOT NULL CHECK (entry > 0),
    -- ORs rather than IN (...), for speed, as in files.kind (see V1).
    change_type   TEXT    NOT NULL CHECK (change_type = 'ADDED' OR change_type = 'MODIFIED' OR change_type = 'MOVED'
                                          OR change_type = 'DELETED'),
    kind          TEXT    NOT NULL CHECK (kind = 'FILE' OR kind = 'DIRECTORY' OR kind = 'SYMLINK' OR kind = 'FIFO'
                                          OR kind = 'SOCKET' OR kind = 'CHAR_DEVICE' OR kind = 'BLOCK_DEVICE'
                                          OR kind = 'OTHER'),
    dir           INTEGER,
    name          TEXT    NOT NULL CHECK (name <> ''),
    previous_path TEXT    CHECK ((change_type = 'MOVED') = (previous_path IS NOT NULL)),
    scan_id       INTEGER NOT NULL,
    at            INTEGER NOT NULL
);

-- The feed's head: the last sequence number handed out and the last one pruned. Every write transaction locks this
-- one row before anything else, so numbers are handed out in commit order and no reader can see a later number
-- committed before an earlier one.
CREATE TABLE ${prefix}feed (
    id             INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    last_seq       INTEGER NOT NULL CHECK (last_seq >= 0),
    pruned_through INTEGER NOT NULL CHECK (pruned_through >= 0 AND pruned_through <= last_seq)
);

INSERT INTO ${prefix}feed (id, last_seq, pruned_through) VALUES (1, 0, 0);

UPDATE ${prefix}schema SET version = 2;
