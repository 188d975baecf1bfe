package io.fsindex.core.schema;

import io.fsindex.api.SchemaException;
import io.fsindex.core.internal.Database;
import io.fsindex.core.internal.TableNames;
import io.fsindex.core.spi.NameSearchIndex;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the optional name search index to what the {@code nameSearchIndex} setting asks: creates and fills it when
 * on and missing, drops it when off and present. It lives outside the versioned schema, so its statements are
 * idempotent and run under the schema lock after the migration.
 */
public final class NameSearchSchema {
    private static final Logger LOG = LoggerFactory.getLogger(NameSearchSchema.class);

    private final Database db;
    private final TableNames t;

    public NameSearchSchema(Database db, TableNames t) {
        this.db = db;
        this.t = t;
    }

    /** Creates the index if {@code wanted} and missing, drops it if not wanted and present. */
    public void apply(boolean wanted) throws SQLException {
        Optional<NameSearchIndex> index = db.dialect().nameSearchIndex();
        if (index.isEmpty()) {
            if (wanted) {
                LOG.info("the {} dialect has no text index for name search; find narrows names by a plain scan",
                        db.dialect().name());
            }
            return;
        }
        try (Connection c = db.connect()) {
            db.connections().lockSchema(c, t.prefix);
            try {
                db.write(c, conn -> {
                    boolean present = index.get().exists(c, t.prefix);
                    if (wanted && !present) {
                        LOG.info("creating the name search index of fsindex's tables {}* in the {} database",
                                t.prefix, db.dialect().name());
                        run(c, index.get().create(t.prefix), true);
                    } else if (!wanted && present) {
                        LOG.info("dropping the name search index of fsindex's tables {}* in the {} database: the"
                                + " nameSearchIndex setting is off", t.prefix, db.dialect().name());
                        run(c, index.get().drop(t.prefix), false);
                    }
                    return null;
                });
            } finally {
                db.connections().unlockSchema(c, t.prefix);
            }
        }
    }

    private void run(Connection c, List<String> statements, boolean creating) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                try {
                    s.execute(sql);
                } catch (SQLException e) {
                    if (db.isRetryable(e)) {
                        throw e;
                    }
                    throw new SchemaException("cannot " + (creating ? "create" : "drop") + " the name search index"
                            + " of fsindex's tables " + t.prefix + "* in the " + db.dialect().name() + " database: "
                            + e.getMessage() + "; the statement was: " + sql + (creating ? ". Have a user allowed to"
                            + " run it do so, or turn the nameSearchIndex setting off" : ""), e);
                }
            }
        }
    }
}
