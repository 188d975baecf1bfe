-- fsindex schema version 7 for PostgreSQL: the tree index, which answers questions about a subtree (du, find by size
-- and time below a directory) from index-only scans. A walk down a subtree looks up the directories of each
-- directory by (parent, kind), taking their ids from the index (INCLUDE); the entries of each are then summed or
-- filtered on the index's own columns. Orphans are left out, as no question asks for them. The variant with plain
-- foreign keys runs this script too: the index does not touch references.
CREATE INDEX ${prefix}files_tree ON ${prefix}files (parent, kind, size, mtime) INCLUDE (id) WHERE gone_at IS NULL;

UPDATE ${prefix}schema SET version = 7;
