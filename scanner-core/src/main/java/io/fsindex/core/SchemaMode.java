package io.fsindex.core;

/** What {@link FsIndex} does with the database schema when it opens. */
public enum SchemaMode {
    /** Create the tables, or upgrade them to this version, then check them (the default). */
    MIGRATE,
    /**
     * Only check that the tables exist at exactly this version and have the expected columns; for applications that
     * apply fsindex's DDL scripts with their own Flyway or Liquibase. Never writes.
     */
    VALIDATE
}
