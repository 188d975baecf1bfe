package io.fsindex.core;

import io.fsindex.core.schema.NameSearchSchema;
import io.fsindex.core.schema.ReferenceMode;
import io.fsindex.core.schema.SchemaManager;
import io.fsindex.core.schema.TablePrefixLimit;
import io.fsindex.api.FsIndexConfigurationException;
import io.fsindex.api.FsIndexException;
import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.PoolOptions;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Opens an index as a builder describes it: picks the dialect, opens the database, and creates or checks the schema. */
final class IndexOpener {
    private IndexOpener() {
    }

    static FsIndex open(IndexConfig b, boolean readOnly) {
        if (b.dataSource() == null && b.jdbcUrl() == null) {
            throw new FsIndexConfigurationException("no database given: set the environment variable FSINDEX_URL,"
                    + " the property fsindex.url or the builder's jdbcUrl(...) to a JDBC URL such as"
                    + " jdbc:sqlite:index.db, or give the builder a dataSource(...)");
        }
        if (b.dataSource() != null && b.jdbcUrl() != null) {
            throw new FsIndexConfigurationException("both a JDBC URL (" + Dialects.redact(b.jdbcUrl()) + ") and a"
                    + " data source are set; set only one");
        }
        if (b.dataSource() != null && (b.maxPoolSize() != 0 || b.metricRegistry() != null)) {
            throw new FsIndexConfigurationException((b.maxPoolSize() != 0 ? "maxPoolSize" : "metricRegistry")
                    + " applies to the pool fsindex opens for a JDBC URL, but a data source is set: size and"
                    + " observe that pool where the application configures it");
        }
        Dialect d = b.dialect();
        DataSource ds = b.dataSource();
        AutoCloseable owned = null;
        try {
            if (d == null) {
                d = Dialects.forUrl(b.jdbcUrl() != null ? b.jdbcUrl() : urlOf(b.dataSource()));
            }
            TablePrefixLimit.check(d, b.tablePrefix());
            if (ds == null) {
                PoolOptions pool = new PoolOptions(b.maxPoolSize(), b.metricRegistry(),
                        !readOnly && b.nameSearchIndex());
                ds = readOnly ? d.connections().openReadOnlyDataSource(b.jdbcUrl(), b.user(), b.password(), pool)
                        : d.connections().openDataSource(b.jdbcUrl(), b.user(), b.password(), pool);
                owned = ds instanceof AutoCloseable a ? a : null;
            }
            FsIndex index = new FsIndex(b, ds, d, owned, readOnly);
            SchemaManager schema = new SchemaManager(index.db, index.tables,
                    new ReferenceMode(d, b.plainForeignKeys()));
            if (b.schemaMode() == SchemaMode.MIGRATE && !readOnly) {
                schema.migrate();
                new NameSearchSchema(index.db, index.tables).apply(b.nameSearchIndex());
            } else {
                schema.validate();
            }
            return index;
        } catch (SQLException e) {
            closeOwned(owned);
            throw new FsIndexException("cannot open the " + (d == null ? "" : d.name() + " ") + "database"
                    + (b.jdbcUrl() == null ? "" : " at " + Dialects.redact(b.jdbcUrl())) + ": " + e.getMessage(), e);
        } catch (FsIndexException e) {
            closeOwned(owned);
            throw e;
        } catch (RuntimeException e) {
            // e.g. the connection pool's own exceptions: still an FsIndexException, with the database named
            closeOwned(owned);
            throw new FsIndexException("cannot open the " + (d == null ? "" : d.name() + " ") + "database"
                    + (b.jdbcUrl() == null ? "" : " at " + Dialects.redact(b.jdbcUrl())) + ": " + e.getMessage(), e);
        }
    }

    private static String urlOf(DataSource ds) {
        try (Connection c = ds.getConnection()) {
            return c.getMetaData().getURL();
        } catch (SQLException e) {
            throw new FsIndexException("cannot connect through the given data source: " + e.getMessage(), e);
        }
    }

    private static void closeOwned(AutoCloseable owned) {
        if (owned != null) {
            try {
                owned.close();
            } catch (Exception ignored) {
                // the open failure is what the caller needs to see
            }
        }
    }
}
