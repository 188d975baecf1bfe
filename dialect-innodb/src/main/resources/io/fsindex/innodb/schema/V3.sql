-- fsindex schema version 3 for MySQL and MariaDB: no change to their tables. Version 3 moved PostgreSQL's parent and
-- scan references from foreign keys to statement triggers; InnoDB keeps its foreign keys, which it checks inside the
-- engine by one index probe per row.

UPDATE ${prefix}schema SET version = 3;
