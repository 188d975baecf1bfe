-- fsindex schema version 8 for MySQL 8.0+ and MariaDB 10.6+, created at once in an empty database: the tables the
-- scripts V1.sql to V8.sql beside this one leave, and nothing else (a test compares the two catalogs on both
-- engines). Those scripts say why each column, key and check is there; an index made by an older fsindex is brought
-- to this version by them, and a change to the schema is a new V<n>.sql and a new create/V<n>.sql.
-- Created in one go, so InnoDB builds each table once instead of rebuilding files and scans for every ALTER.

CREATE TABLE ${prefix}scans (
    id           BIGINT      NOT NULL AUTO_INCREMENT,
    root         TEXT        NOT NULL,
    state        VARCHAR(16) CHARACTER SET ascii NOT NULL,
    started_at   BIGINT      NOT NULL,
    finished_at  BIGINT,
    added        BIGINT      NOT NULL DEFAULT 0 CHECK (added >= 0),
    updated      BIGINT      NOT NULL DEFAULT 0 CHECK (updated >= 0),
    deleted      BIGINT      NOT NULL DEFAULT 0 CHECK (deleted >= 0),
    errors       BIGINT      NOT NULL DEFAULT 0 CHECK (errors >= 0),
    message      TEXT,
    moved        BIGINT      NOT NULL DEFAULT 0 CHECK (moved >= 0),
    heartbeat_at BIGINT,
    PRIMARY KEY (id),
    CONSTRAINT ${prefix}scans_state CHECK (state IN ('RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'ABANDONED'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE ${prefix}contents (
    hash         CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL CHECK (hash REGEXP '^[0-9a-f]{64}$'),
    size         BIGINT   NOT NULL CHECK (size >= 0),
    created_at   BIGINT   NOT NULL,
    unused_since BIGINT,
    PRIMARY KEY (hash)
) ENGINE = InnoDB;

CREATE TABLE ${prefix}files (
    id             BIGINT          NOT NULL AUTO_INCREMENT,
    parent         BIGINT,
    name           VARBINARY(1020) NOT NULL CHECK (name <> ''),
    kind           VARCHAR(12)     CHARACTER SET ascii NOT NULL
                   CHECK (kind IN ('FILE', 'DIRECTORY', 'SYMLINK', 'FIFO', 'SOCKET', 'CHAR_DEVICE', 'BLOCK_DEVICE',
                                   'OTHER')),
    size           BIGINT          NOT NULL DEFAULT 0,
    mtime          BIGINT          NOT NULL DEFAULT 0,
    link_target    TEXT,
    scan_id        BIGINT          NOT NULL,
    listed_by      BIGINT          NOT NULL DEFAULT 0 CHECK (listed_by >= 0),
    stale          TINYINT         NOT NULL DEFAULT 0 CHECK (stale IN (0, 1)),
    top_level_name VARBINARY(1020) AS (CASE WHEN parent IS NULL THEN name END) VIRTUAL,
    file_key       BIGINT,
    gone_at        BIGINT CHECK (gone_at > 0),
    fingerprint    CHAR(64) CHARACTER SET ascii COLLATE ascii_bin CHECK (fingerprint REGEXP '^[0-9a-f]{64}$'),
    content_hash   CHAR(64) CHARACTER SET ascii COLLATE ascii_bin,
    PRIMARY KEY (id),
    UNIQUE KEY ${prefix}files_name (parent, name),
    UNIQUE KEY ${prefix}files_top_level (top_level_name),
    KEY ${prefix}files_stale (scan_id, stale),
    KEY ${prefix}files_file_key (file_key),
    KEY ${prefix}files_gone (gone_at),
    KEY ${prefix}files_fingerprint (fingerprint),
    -- Named before the tree index, as the foreign key below made it before V7 added that index: InnoDB keeps a
    -- table's keys in the order they were made, and the optimizer may choose between two equally good ones by it.
    KEY ${prefix}files_content (content_hash),
    KEY ${prefix}files_tree (parent, kind, gone_at, size, mtime),
    CONSTRAINT ${prefix}files_parent FOREIGN KEY (parent) REFERENCES ${prefix}files (id) ON DELETE CASCADE,
    CONSTRAINT ${prefix}files_scan FOREIGN KEY (scan_id) REFERENCES ${prefix}scans (id),
    CONSTRAINT ${prefix}files_content FOREIGN KEY (content_hash) REFERENCES ${prefix}contents (hash)
        ON DELETE RESTRICT,
    CONSTRAINT ${prefix}files_size CHECK (size >= 0),
    CONSTRAINT ${prefix}files_hashed_file CHECK ((fingerprint IS NULL AND content_hash IS NULL) OR kind = 'FILE')
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE ${prefix}schema (
    version INT NOT NULL CHECK (version > 0),
    PRIMARY KEY (version)
) ENGINE = InnoDB;

CREATE TABLE ${prefix}change_dirs (
    id   BIGINT NOT NULL CHECK (id > 0),
    path BLOB   NOT NULL CHECK (path <> ''),
    PRIMARY KEY (id)
) ENGINE = InnoDB;

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

CREATE TABLE ${prefix}feed (
    id             INT    NOT NULL CHECK (id = 1),
    last_seq       BIGINT NOT NULL CHECK (last_seq >= 0),
    pruned_through BIGINT NOT NULL CHECK (pruned_through >= 0),
    PRIMARY KEY (id),
    CONSTRAINT ${prefix}feed_pruned CHECK (pruned_through <= last_seq)
) ENGINE = InnoDB;

CREATE TABLE ${prefix}scopes (
    path_hash  CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL CHECK (path_hash REGEXP '^[0-9a-f]{64}$'),
    path       TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL CHECK (CHAR_LENGTH(path) > 0),
    rules      TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    device     BIGINT,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (path_hash)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE ${prefix}scan_ids (
    id      INT    NOT NULL CHECK (id = 1),
    last_id BIGINT NOT NULL CHECK (last_id >= 0),
    PRIMARY KEY (id)
) ENGINE = InnoDB;

INSERT INTO ${prefix}feed (id, last_seq, pruned_through) VALUES (1, 0, 0);
INSERT INTO ${prefix}scan_ids (id, last_id) VALUES (1, 0);
INSERT INTO ${prefix}schema (version) VALUES (8);
