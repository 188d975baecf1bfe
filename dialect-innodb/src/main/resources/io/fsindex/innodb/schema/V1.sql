-- fsindex schema version 1 for MySQL 8.0+ and MariaDB 10.6+: one script serves both. ${prefix} is the table prefix.
-- InnoDB throughout (transactions, row locks, foreign keys). Ids are BIGINT AUTO_INCREMENT, which InnoDB never hands
-- out again, not even after the newest rows are deleted and the server restarts: MySQL 8.0 and MariaDB 10.2.4 persist
-- the counter (older servers recomputed it as MAX(id) + 1 at startup and could reuse ids, which the protocol forbids).
-- Every table has a primary key, so servers run with sql_require_primary_key accept the script.

CREATE TABLE ${prefix}scans (
    id          BIGINT      NOT NULL AUTO_INCREMENT,
    root        TEXT        NOT NULL,
    state       VARCHAR(16) CHARACTER SET ascii NOT NULL
                CHECK (state IN ('RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED')),
    started_at  BIGINT      NOT NULL,
    finished_at BIGINT,
    added       BIGINT      NOT NULL DEFAULT 0 CHECK (added >= 0),
    updated     BIGINT      NOT NULL DEFAULT 0 CHECK (updated >= 0),
    deleted     BIGINT      NOT NULL DEFAULT 0 CHECK (deleted >= 0),
    errors      BIGINT      NOT NULL DEFAULT 0 CHECK (errors >= 0),
    message     TEXT,
    PRIMARY KEY (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- name is VARBINARY: compared byte for byte on both engines. A character column would not do with one script: the
-- default collations ignore case and accents, and utf8mb4_bin is PAD SPACE on MariaDB (it ignores trailing spaces);
-- the byte-exact NO PAD collations are named differently (utf8mb4_0900_bin on MySQL, utf8mb4_nopad_bin on MariaDB).
-- 1020 bytes hold any 255-character name, and (parent, name) stays far below InnoDB's 3072-byte key limit.
-- top_level_name exists only to keep top-level names unique: UNIQUE (parent, name) lets any number of NULL parents
-- through, and MySQL has no partial indexes. It is VIRTUAL because MySQL forbids ON DELETE CASCADE on the base
-- column (parent) of a STORED generated column.
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
    PRIMARY KEY (id),
    UNIQUE KEY ${prefix}files_name (parent, name),
    UNIQUE KEY ${prefix}files_top_level (top_level_name),
    -- serves the foreign key to scans and the end-of-scan sweep
    KEY ${prefix}files_stale (scan_id, stale),
    CONSTRAINT ${prefix}files_parent FOREIGN KEY (parent) REFERENCES ${prefix}files (id) ON DELETE CASCADE,
    CONSTRAINT ${prefix}files_scan FOREIGN KEY (scan_id) REFERENCES ${prefix}scans (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE ${prefix}schema (
    version INT NOT NULL CHECK (version > 0),
    PRIMARY KEY (version)
) ENGINE = InnoDB;

INSERT INTO ${prefix}schema (version) VALUES (1);
