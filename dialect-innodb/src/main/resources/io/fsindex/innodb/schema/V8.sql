-- fsindex schema version 8 for MySQL and MariaDB: nothing changes. Version 8 orders SQLite's tree index by id within
-- a directory's entries, so that a huge directory's new rows go in at its end; here that cost a subtree's questions
-- more time (InnoDB could no longer seek a size range within a directory) than it saved a huge directory's scan.
UPDATE ${prefix}schema SET version = 8;
