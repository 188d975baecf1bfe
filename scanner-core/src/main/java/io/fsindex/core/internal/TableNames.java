package io.fsindex.core.internal;

/**
 * The names of fsindex's tables for one table prefix, as plain strings: what checking the schema and answering a
 * lookup need, without the jOOQ objects of {@link io.fsindex.core.spi.FsTables}, which takes its names from here.
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

    /** The file table's name. */
    public String filesName() {
        return prefix + "files";
    }

    /** The scan table's name. */
    public String scansName() {
        return prefix + "scans";
    }

    /** The content table's name. */
    public String contentsName() {
        return prefix + "contents";
    }

    /** The change feed's table name. */
    public String changesName() {
        return prefix + "changes";
    }

    /** The table of directory paths the change feed refers to. */
    public String changeDirsName() {
        return prefix + "change_dirs";
    }

    /** The feed head's table name. */
    public String feedName() {
        return prefix + "feed";
    }

    /** The one-row counter ordered scan ids are taken from (schema version 6). */
    public String scanIdsName() {
        return prefix + "scan_ids";
    }

    /** The schema-version table's name. */
    public String schemaName() {
        return prefix + "schema";
    }
}
