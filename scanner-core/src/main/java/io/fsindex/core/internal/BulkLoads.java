package io.fsindex.core.internal;

import java.sql.Connection;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Whether one scan may use the engine's bulk loader, and each use of it, which turns it off for the scan if it fails. */
public final class BulkLoads {
    private static final Logger LOG = LoggerFactory.getLogger(BulkLoads.class);
    private final Database db;
    private final Statements st;
    private final long scan;
    /** Set once a bulk load failed: the scan's retry, and the rest of it, insert with conflict handling instead. */
    private boolean loadRefused;

    public BulkLoads(Database db, Statements st, Connection c, long scan) throws SQLException {
        this.db = db;
        this.st = st;
        this.scan = scan;
        loadRefused = st.bulkLoader != null && !st.bulkLoader.available(c);
    }

    /**
     * Whether the engine's bulk loader may be used: there is one, the server and driver allow loads, and no load has
     * failed in this scan.
     */
    public boolean loaderUsable() {
        return st.bulkLoader != null && !loadRefused;
    }

    /** One use of the loader. */
    public interface LoaderUse {
        void run() throws SQLException;
    }

    /**
     * Runs {@code use}, one use of the bulk loader that sends {@code text}, and empties the text whatever happens; a
     * failure turns the loader off for the rest of the scan ({@link #loadRefused}) and has the transaction retried
     * ({@link LoadRefused}), since the inserts that take over handle what a load cannot.
     */
    public void usingLoader(LoadText text, LoaderUse use) throws SQLException {
        try {
            use.run();
        } catch (SQLException e) {
            if (!loadRefused) {
                LOG.info("scan {}: the {} bulk loader failed, so the transaction is retried and the rest of the scan"
                        + " inserts row by row: {}", scan, db.dialect().name(), e.toString());
            }
            loadRefused = true;
            throw e instanceof LoadRefused || db.isRetryable(e) ? e : new LoadRefused(e);
        } finally {
            text.clear();
        }
    }
}
