-- fsindex schema version 7 for SQLite: the tree index, which answers questions about a subtree (du, find by size
-- and time below a directory) without reading the table. A walk down a subtree looks up the directories of each
-- directory by (parent, kind); the entries of each are then summed or filtered on the index's own columns. gone_at
-- is a column as well as the condition: SQLite reads a partial index in place of the table only when every column a
-- query names is in it. Orphans are left out, as no question asks for them.
CREATE INDEX ${prefix}files_tree ON ${prefix}files (parent, kind, size, mtime, gone_at) WHERE gone_at IS NULL;

UPDATE ${prefix}schema SET version = 7;
