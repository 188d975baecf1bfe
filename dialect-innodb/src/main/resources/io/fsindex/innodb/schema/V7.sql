-- fsindex schema version 7 for MySQL and MariaDB: the tree index, which answers questions about a subtree (du, find
-- by size and time below a directory) without reading the table's rows. A walk down a subtree looks up the live
-- directories of each directory by (parent, kind, gone_at); the entries of each are then summed or filtered on the
-- index's own columns (InnoDB adds the primary key, id, to every secondary index). Neither engine has partial
-- indexes, so orphans are in it too; gone_at before size keeps a size range a range within the live rows.
ALTER TABLE ${prefix}files ADD INDEX ${prefix}files_tree (parent, kind, gone_at, size, mtime);

UPDATE ${prefix}schema SET version = 7;
