-- fsindex schema version 3 for SQLite: no change to SQLite's tables. Version 3 moved PostgreSQL's parent and scan
-- references from foreign keys to statement triggers; SQLite keeps its foreign keys, which check each row by one
-- index probe inside the engine, without a query of their own.

UPDATE ${prefix}schema SET version = 3;
