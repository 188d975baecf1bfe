-- fsindex schema version 8 for PostgreSQL: nothing changes. Version 8 orders SQLite's tree index by id within a
-- directory's entries, so that a huge directory's new rows go in at its end; PostgreSQL's server spent as long on a
-- huge directory's cold scan with the index ordered so, and its tree index keeps size and mtime as keys, so a range
-- below a directory is sought.
UPDATE ${prefix}schema SET version = 8;
