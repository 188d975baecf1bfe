-- fsindex schema version 3 for PostgreSQL: the files table's references to its parent and to its scan are enforced
-- by triggers, an INSERT's once per statement instead of once per row.
--
-- A foreign key checks every inserted row with a query of its own (SELECT 1 ... FOR KEY SHARE on the referenced
-- row), run by a row trigger; for the parent and scan_id keys that was about a third of what inserting a scan's new
-- rows cost (docs/benchmarks.md). The triggers below do the same work for a whole statement at once, from its
-- transition tables, and keep what the two keys promised:
-- * a row's parent and scan exist: every parent and scan that an INSERT names (once per statement), or an UPDATE
--   changes to (row by row, as before), is locked FOR KEY SHARE, as a foreign key locks it, so a concurrent delete
--   of it either waits for this transaction or has committed, and then the statement fails with
--   foreign_key_violation (23503), the error a foreign key raises;
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

-- Locks the given parents and scans and fails as a foreign key would if one of them does not exist: fewer found than
-- named means one is gone. Planned for each call's arrays (plan_cache_mode): a plan PL/pgSQL kept from a session's
-- first statements, made while the table was nearly empty, would read the whole table for every statement once it
-- has grown (a cold scan went 5x slower; PostgresReferencesTest watches for it).
CREATE OR REPLACE FUNCTION ${prefix}files_require(parents BIGINT[], scans BIGINT[]) RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan AS $$
BEGIN
    IF parents IS NOT NULL AND cardinality(parents) > (SELECT count(*) FROM
            (SELECT 1 FROM ${prefix}files p WHERE p.id = ANY (parents) FOR KEY SHARE OF p) locked) THEN
        RAISE EXCEPTION 'a row of ${prefix}files names a parent that does not exist'
            USING ERRCODE = 'foreign_key_violation', TABLE = '${prefix}files', COLUMN = 'parent';
    END IF;
    IF scans IS NOT NULL AND cardinality(scans) > (SELECT count(*) FROM
            (SELECT 1 FROM ${prefix}scans s WHERE s.id = ANY (scans) FOR KEY SHARE OF s) locked) THEN
        RAISE EXCEPTION 'a row of ${prefix}files names a scan that does not exist'
            USING ERRCODE = 'foreign_key_violation', TABLE = '${prefix}files', COLUMN = 'scan_id';
    END IF;
END $$;

-- An INSERT's rows, once per statement: the distinct parents and scans they name.
CREATE OR REPLACE FUNCTION ${prefix}files_check_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM ${prefix}files_require(
        (SELECT array_agg(DISTINCT parent) FILTER (WHERE parent IS NOT NULL) FROM new_rows),
        (SELECT array_agg(DISTINCT scan_id) FROM new_rows));
    RETURN NULL;
END $$;

CREATE TRIGGER ${prefix}files_inserted AFTER INSERT ON ${prefix}files
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ${prefix}files_check_inserted();

-- An UPDATE is checked row by row, and only where it changes parent or scan_id (a move, a row a scan rewrote): a
-- statement trigger would run for every UPDATE, a directory's claim included, which is most of a rescan's writes.
CREATE OR REPLACE FUNCTION ${prefix}files_check_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM ${prefix}files_require(
        CASE WHEN NEW.parent IS DISTINCT FROM OLD.parent AND NEW.parent IS NOT NULL THEN ARRAY[NEW.parent] END,
        CASE WHEN NEW.scan_id <> OLD.scan_id THEN ARRAY[NEW.scan_id] END);
    RETURN NULL;
END $$;

CREATE TRIGGER ${prefix}files_updated AFTER UPDATE OF parent, scan_id ON ${prefix}files
    FOR EACH ROW WHEN (NEW.parent IS DISTINCT FROM OLD.parent OR NEW.scan_id <> OLD.scan_id)
    EXECUTE FUNCTION ${prefix}files_check_updated();

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
