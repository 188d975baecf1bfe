-- fsindex schema version 8 for SQLite: the tree index ordered by id within a directory's entries of one kind, instead
-- of by size and time. A scan inserts new rows in id order, so a directory's new rows now go in at the end of its
-- stretch of the index instead of all over it: a huge directory's cold scan no longer writes its rows at random
-- places of the index. size and mtime stay in it, so sizes and ranges below a directory are still read from the
-- index alone; a range is now filtered within a directory's entries instead of sought.
DROP INDEX ${prefix}files_tree;
CREATE INDEX ${prefix}files_tree ON ${prefix}files (parent, kind, id, size, mtime, gone_at) WHERE gone_at IS NULL;

UPDATE ${prefix}schema SET version = 8;
