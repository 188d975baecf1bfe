-- fsindex schema version 5 for MySQL and MariaDB: scoped scans. One row per directory whose rules or device fsindex
-- keeps: a root with stored rules (rules, fsindex's text form, see ScanScope), a scanned root, or a mount point a
-- scan found below its root (device). path_hash is the hex SHA-256 of the real path's UTF-8 bytes, a key of fixed
-- size on every engine (a path can be longer than InnoDB's longest key); path is the real path itself.
CREATE TABLE ${prefix}scopes (
    path_hash  CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL CHECK (path_hash REGEXP '^[0-9a-f]{64}$'),
    path       TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL CHECK (CHAR_LENGTH(path) > 0),
    rules      TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    device     BIGINT,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (path_hash)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

UPDATE ${prefix}schema SET version = 5;
