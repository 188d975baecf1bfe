package io.fsindex.core.schema;

import io.fsindex.api.SchemaException;
import io.fsindex.core.internal.TableNames;
import io.fsindex.core.spi.Dialect;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * How an index's files table enforces its references, as it was asked to ({@code FsIndex.Builder.plainForeignKeys}):
 * picks the schema scripts of that mode and checks that existing tables were created in it. Only a dialect with a
 * plain-foreign-key variant ({@link Dialect#plainForeignKeySchemaScript}, PostgreSQL's) has two modes; elsewhere the
 * references are plain foreign keys either way and nothing is checked.
 */
public final class ReferenceMode {
    private final Dialect dialect;
    private final boolean plainForeignKeys;
    /** The mode {@code plainForeignKeys} asks for, on {@code dialect}'s schema. */
    public ReferenceMode(Dialect dialect, boolean plainForeignKeys) {
        this.dialect = dialect;
        this.plainForeignKeys = plainForeignKeys;
    }

    /** The first version whose script differs between the modes, or 0 if none does (a dialect with one mode). */
    private int firstVariantVersion() {
        for (int v = 1; v <= SchemaManager.CURRENT_VERSION; v++) {
            if (dialect.plainForeignKeySchemaScript(v).isPresent()) {
                return v;
            }
        }
        return 0;
    }

    /** The script that brings the schema to {@code version} in this mode. */
    public Optional<String> script(int version) {
        if (plainForeignKeys) {
            Optional<String> variant = dialect.plainForeignKeySchemaScript(version);
            if (variant.isPresent()) {
                return variant;
            }
        }
        return dialect.schemaScript(version);
    }

    /**
     * The script that creates the tables at {@code version} at once in this mode ({@link Dialect#createSchemaScript}),
     * or empty where the scripts of each version must run instead: the dialect has none, or this is the plain-foreign-
     * key variant of a dialect that has one.
     */
    public Optional<String> createScript(int version) {
        return plainForeignKeys && firstVariantVersion() != 0 ? Optional.empty() : dialect.createSchemaScript(version);
    }

    /**
     * Fails if the tables, at {@code version}, were created in the other mode: their files table has a foreign key
     * on {@code parent} exactly when they use plain foreign keys ({@code filesTable} as the database stores its name).
     */
    void check(Connection c, TableNames t, String filesTable, int version) throws SQLException {
        int first = firstVariantVersion();
        if (first == 0 || version < first) {
            return;
        }
        boolean plain = hasParentForeignKey(c, filesTable);
        if (plain != plainForeignKeys) {
            throw new SchemaException("fsindex's tables " + t.prefix + "* in this " + dialect.name() + " database"
                    + " were created " + describe(plain) + ", but this index is opened " + describe(plainForeignKeys)
                    + "; open it with plainForeignKeys " + (plain ? "on" : "off") + " (the builder's"
                    + " plainForeignKeys(" + plain + "), fsindex.plainForeignKeys=" + plain + " or"
                    + " FSINDEX_PLAIN_FOREIGN_KEYS=" + plain + "), or create a new index (another table prefix or"
                    + " database) in the mode you want; nothing was changed");
        }
    }

    private String describe(boolean plain) {
        return plain ? "with plain foreign keys (plainForeignKeys on)"
                : "with " + dialect.name() + "'s statement triggers (plainForeignKeys off, the default)";
    }

    private static boolean hasParentForeignKey(Connection c, String filesTable) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        try (ResultSet rs = md.getImportedKeys(c.getCatalog(), c.getSchema(), filesTable)) {
            while (rs.next()) {
                if (filesTable.equalsIgnoreCase(rs.getString("PKTABLE_NAME"))
                        && "parent".equalsIgnoreCase(rs.getString("FKCOLUMN_NAME"))) {
                    return true;
                }
            }
        }
        return false;
    }
}
