-- fsindex schema version 3 for PostgreSQL: the files table's references to its parent and to its scan are enforced
-- once per statement instead of once per row.
--
-- A foreign key checks every inserted row with a query of its own (SELECT 1 ... FOR KEY SHARE on the referenced
-- row), run by a row trigger; for the parent and scan_id keys that was about half of what inserting a scan's new rows
-- cost (docs/benchmarks.md). The triggers below do the same work for a whole statement at once, from its
-- transition tables, and keep what the two keys promised:
-- * a row's parent and scan exist: every parent and scan that an INSERT names, or an UPDATE changes to, is locked
--   FOR KEY SHARE, as a foreign key locks it, so a concurrent delete of it either waits for this transaction or has
--   committed, and then the statement fails with foreign_key_violation (23503), the error a foreign key raises;
-- * deleting a row deletes the rows below it (ON DELETE CASCADE), an application's own foreign keys to files firing
--   on each of them as before;
-- * a scan that rows still name cannot be deleted (the default NO ACTION).
-- Not kept: a check when an id itself is changed. Ids are identity columns that fsindex never updates, and the store
-- contract forbids other writers to.
-- The content_hash key stays a foreign key: most rows have no hash, for which its check costs next to nothing.

DO $$
DECLARE
    fk TEXT;
BEGIN
    FOR fk IN SELECT conname FROM pg_constraint
              WHERE conrelid = '${prefix}files'::regclass AND contype = 'f'
                AND confrelid IN ('${prefix}files'::regclass, '${prefix}scans'::regclass)
    LOOP
        EXECUTE format('ALTER TABLE ${prefix}files DROP CONSTRAINT %I', fk);
    END LOOP;
END $$;

-- The parents and scans a statement's rows newly name, locked and counted: fewer found than named means one is gone.
-- The arrays make each lookup an index probe whatever the statement's size, in a plan PL/pgSQL may keep.
CREATE OR REPLACE FUNCTION ${prefix}files_check_references() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    parents BIGINT[];
    scans   BIGINT[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(DISTINCT parent) FILTER (WHERE parent IS NOT NULL), array_agg(DISTINCT scan_id)
          INTO parents, scans FROM new_rows;
    ELSE
        SELECT array_agg(DISTINCT n.parent) FILTER (WHERE n.parent IS NOT NULL AND n.parent IS DISTINCT FROM o.parent),
               array_agg(DISTINCT n.scan_id) FILTER (WHERE n.scan_id <> o.scan_id)
          INTO parents, scans FROM new_rows n JOIN old_rows o ON o.id = n.id;
    END IF;
    IF cardinality(parents) > (SELECT count(*) FROM
            (SELECT 1 FROM ${prefix}files p WHERE p.id = ANY (parents) FOR KEY SHARE OF p) locked) THEN
        RAISE EXCEPTION 'a row of ${prefix}files names a parent that does not exist'
            USING ERRCODE = 'foreign_key_violation', TABLE = '${prefix}files', COLUMN = 'parent';
    END IF;
    IF cardinality(scans) > (SELECT count(*) FROM
            (SELECT 1 FROM ${prefix}scans s WHERE s.id = ANY (scans) FOR KEY SHARE OF s) locked) THEN
        RAISE EXCEPTION 'a row of ${prefix}files names a scan that does not exist'
            USING ERRCODE = 'foreign_key_violation', TABLE = '${prefix}files', COLUMN = 'scan_id';
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER ${prefix}files_inserted AFTER INSERT ON ${prefix}files
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ${prefix}files_check_references();

CREATE TRIGGER ${prefix}files_updated AFTER UPDATE ON ${prefix}files
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ${prefix}files_check_references();

-- Deletes every row below the deleted ones with one statement (its own DELETE fires this again, which then finds
-- what a concurrent transaction added below them meanwhile: normally nothing). Dynamic SQL is planned for the
-- actual number of rows each time; a kept plan made for one deleted row would scan the table for a large subtree.
CREATE OR REPLACE FUNCTION ${prefix}files_delete_subtrees() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    gone BIGINT[];
BEGIN
    SELECT array_agg(id) INTO gone FROM old_rows;
    IF gone IS NOT NULL THEN
        EXECUTE 'WITH RECURSIVE below (id) AS ('
             || ' SELECT f.id FROM ${prefix}files f WHERE f.parent = ANY ($1)'
             || ' UNION ALL SELECT f.id FROM ${prefix}files f JOIN below b ON f.parent = b.id)'
             || ' DELETE FROM ${prefix}files WHERE id IN (SELECT id FROM below)' USING gone;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER ${prefix}files_deleted AFTER DELETE ON ${prefix}files
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ${prefix}files_delete_subtrees();

CREATE OR REPLACE FUNCTION ${prefix}scans_check_unreferenced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM ${prefix}files f WHERE f.scan_id IN (SELECT id FROM old_rows)) THEN
        RAISE EXCEPTION 'a scan that rows of ${prefix}files still name cannot be deleted'
            USING ERRCODE = 'foreign_key_violation', TABLE = '${prefix}scans';
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER ${prefix}scans_deleted AFTER DELETE ON ${prefix}scans
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ${prefix}scans_check_unreferenced();

UPDATE ${prefix}schema SET version = 3;
