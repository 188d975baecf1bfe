-- fsindex schema version 3 for PostgreSQL, plain-foreign-key variant (FsIndex.Builder.plainForeignKeys): the
-- files table's references to its parent and to its scan stay the foreign keys schema version 1 created, with
-- ON DELETE CASCADE on the parent, instead of the statement triggers of the ordinary V3.sql, whose transition
-- tables CockroachDB and YugabyteDB do not support. The keys keep what the triggers keep: a row's parent and scan
-- exist (each checked and locked FOR KEY SHARE, row by row), deleting a row deletes the rows below it, and a scan
-- that rows still name cannot be deleted. Every later version's script is the same for both variants.
UPDATE ${prefix}schema SET version = 3;
