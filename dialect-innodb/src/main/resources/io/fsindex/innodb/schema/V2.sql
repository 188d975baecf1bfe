-- fsindex schema version 2 for MySQL 8.0+ and MariaDB 10.6+: identities for moves, orphans, content hashes, the
-- change feed. Column meanings and who may write what: README, sections "Schema" and "Store contract".
-- MySQL commits each DDL statement on its own; fsindex holds its schema lock (GET_LOCK) around the whole script.

-- Content-addressed blobs: one row per distinct content hash. Files reference them with ON DELETE RESTRICT, so a
-- content cannot be deleted while anything (fsindex's files or an application's own table) still references it.
-- unused_since is the collector's mark: when it last found the content unreferenced (NULL: referenced then).
CREATE TABLE ${prefix}contents (
    hash         CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL CHECK (hash REGEXP '^[0-9a-f]{64}$'),
    size         BIGINT   NOT NULL CHECK (size >= 0),
    created_at   BIGINT   NOT NULL,
    unused_since BIGINT,
    PRIMARY KEY (hash)
) ENGINE = InnoDB;

-- file_key: the filesystem's identity of the entry (device and inode), which a move keeps, as a 64-bit hash: an
-- integer keeps its index small (a candidate it finds is checked on kind, mtime and size besides).
-- gone_at: when a completed scan found the entry gone; the row is kept as an orphan (invisible to lookups) so that a
-- later scan finding the same identity elsewhere moves it instead of inserting a new row, until the retention ends.
ALTER TABLE ${prefix}files
    ADD COLUMN file_key     BIGINT,
    ADD COLUMN gone_at      BIGINT CHECK (gone_at > 0),
    ADD COLUMN fingerprint  CHAR(64) CHARACTER SET ascii COLLATE ascii_bin
                            CHECK (fingerprint REGEXP '^[0-9a-f]{64}$'),
    ADD COLUMN content_hash CHAR(64) CHARACTER SET ascii COLLATE ascii_bin,
    ADD KEY ${prefix}files_file_key (file_key),
    ADD KEY ${prefix}files_gone (gone_at),
    ADD KEY ${prefix}files_fingerprint (fingerprint),
    ADD CONSTRAINT ${prefix}files_content FOREIGN KEY (content_hash) REFERENCES ${prefix}contents (hash)
        ON DELETE RESTRICT,
    -- The store contract (README, "Store contract"): V1 left size unchecked; only a file has content, so only a FILE
    -- row may carry a fingerprint or a content hash. Table constraints: MySQL refuses a column CHECK naming another.
    ADD CONSTRAINT ${prefix}files_size CHECK (size >= 0),
    ADD CONSTRAINT ${prefix}files_hashed_file CHECK ((fingerprint IS NULL AND content_hash IS NULL) OR kind = 'FILE');

ALTER TABLE ${prefix}scans ADD COLUMN moved BIGINT NOT NULL DEFAULT 0 CHECK (moved >= 0);

-- Where changes happened: the path a directory had when entries in it changed, written once per transaction and
-- directory, so that a change row holds a reference and a name instead of a whole path. Its id is the number of the
-- first change that refers to it.
CREATE TABLE ${prefix}change_dirs (
    id   BIGINT NOT NULL CHECK (id > 0),
    path BLOB   NOT NULL CHECK (path <> ''),
    PRIMARY KEY (id)
) ENGINE = InnoDB;

-- The change feed: one row per committed change, numbered without gaps in commit order (see ${prefix}feed). The
-- entry's path is change_dirs.path of dir, then name; a top-level entry (dir NULL) has its whole path as name.
-- Paths and names are binary for the same reason file names are: byte for byte, whatever the collations.
CREATE TABLE ${prefix}changes (
    seq           BIGINT      NOT NULL CHECK (seq > 0),
    entry         BIGINT      NOT NULL CHECK (entry > 0),
    change_type   VARCHAR(8)   CHARACTER SET ascii NOT NULL
                  CHECK (change_type IN ('ADDED', 'MODIFIED', 'MOVED', 'DELETED')),
    kind          VARCHAR(12) CHARACTER SET ascii NOT NULL
                  CHECK (kind IN ('FILE', 'DIRECTORY', 'SYMLINK', 'FIFO', 'SOCKET', 'CHAR_DEVICE', 'BLOCK_DEVICE',
                                  'OTHER')),
    dir           BIGINT,
    name          VARBINARY(1020) NOT NULL CHECK (name <> ''),
    previous_path BLOB,
    scan_id       BIGINT      NOT NULL,
    at            BIGINT      NOT NULL,
    PRIMARY KEY (seq),
    CONSTRAINT ${prefix}changes_moved CHECK ((change_type = 'MOVED') = (previous_path IS NOT NULL))
) ENGINE = InnoDB;

-- The feed's head: the last sequence number handed out and the last one pruned. Every write transaction locks this
-- one row before anything else, so numbers are handed out in commit order and no reader can see a later number
-- committed before an earlier one (AUTO_INCREMENT would hand them out in insert order instead).
CREATE TABLE ${prefix}feed (
    id             INT    NOT NULL CHECK (id = 1),
    last_seq       BIGINT NOT NULL CHECK (last_seq >= 0),
    pruned_through BIGINT NOT NULL CHECK (pruned_through >= 0),
    PRIMARY KEY (id),
    CONSTRAINT ${prefix}feed_pruned CHECK (pruned_through <= last_seq)
) ENGINE = InnoDB;

INSERT INTO ${prefix}feed (id, last_seq, pruned_through) VALUES (1, 0, 0);

UPDATE ${prefix}schema SET version = 2;
