package io.fsindex.core.internal;

/**
 * The names of fsindex's tables for one table prefix, as plain strings: what checking the schema and answering a
 * lookup need, without the jOOQ objects of {@link io.fsindex.core.spi.FsTables} (whose names these must equal).
 */
public final class TableNames {
    /** The table prefix. */
    public final String prefix;

    /** The table of stored rules and recorded devices per directory (schema version 5). */
    public String scopesName() {
        return prefix + "scopes";
    }

    /** @throws IllegalArgumentException if {@code prefix} is not letters, digits and underscores */
    public TableNames(String prefix) {
        if (!prefix.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("table prefix must be letters, digits and underscores, starting with a"
                    + " letter or underscore; got '" + prefix + "'");
        }
        this.prefix = prefix;
    }

    public String filesName() {
        return prefix + "files";
    }

    public String scansName() {
        return prefix + "scans";
    }

    public String contentsName() {
        return prefix + "contents";
    }

    public String changesName() {
        return prefix + "changes";
    }

    public String changeDirsName() {
        return prefix + "change_dirs";
    }

    public String feedName() {
        return prefix + "feed";
    }

    public String schemaName() {
        return prefix + "schema";
    }
}
