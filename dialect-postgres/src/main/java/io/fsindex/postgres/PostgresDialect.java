package io.fsindex.postgres;

import io.fsindex.core.spi.BulkLoader;
import io.fsindex.core.spi.Connections;
import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.DialectStatements;
import io.fsindex.core.spi.ErrorClassifier;
import io.fsindex.core.spi.FsTables;
import io.fsindex.core.spi.NameSearchIndex;
import java.util.Optional;
import org.jooq.SQLDialect;

/**
 * The PostgreSQL dialect (PostgreSQL 12 or newer; tested on 16). Serves {@code jdbc:postgresql:} URLs, and
 * Testcontainers' {@code jdbc:tc:postgresql:}; when only a URL is given, connections come from a HikariCP pool that
 * {@code FsIndex.close()} closes. Ids are identity columns, whose sequences never hand out a value twice, even after
 * the newest rows are deleted or the server restarts (a crash may skip values, never repeat them).
 *
 * <h2>Why the shared statements are safe here</h2>
 * Transactions run at the connection's isolation level; the reasoning below is for READ COMMITTED, PostgreSQL's
 * default, where every statement sees what was committed when it started and a row another transaction is changing
 * is waited for and then re-checked in its newest version. Stronger levels are safe too; they only turn more of the
 * waits below into serialization failures, which are retried.
 * <ul>
 * <li><b>Upsert of an existing row</b> ({@code ON CONFLICT (parent, name) DO UPDATE ... WHERE files.scan_id <=
 *     :scan}): the conflicting row is locked and the condition is checked on its newest committed version, so an
 *     older scan can never overwrite what a newer one wrote, whatever the interleaving.</li>
 * <li><b>Two scans inserting the same new row</b>: the second insert waits for the first transaction on the
 *     {@code UNIQUE (parent, name)} arbiter and then takes the update path with the same {@code scan_id} check; it
 *     never fails with a unique violation (23505), so one conflict cannot abort a directory's batch.</li>
 * <li><b>The conditional insert's parent check</b> is where READ COMMITTED differs from SQLite's one-writer-at-a-time:
 *     a plain {@code EXISTS} reads the parent from the statement's snapshot and locks nothing, so (1) a newer scan
 *     could claim the parent (raise {@code listed_by}) and mark its children stale while an older scan, still
 *     seeing the old {@code listed_by}, inserts a child the newer scan never marks: a row resurrected after the
 *     newer scan has seen it gone; and (2) a newer scan's sweep could delete the parent between the check and the
 *     insert, failing the insert's foreign key (23503) and with it the whole transaction. This dialect therefore
 *     checks the parent with {@code EXISTS (SELECT 1 ... FOR SHARE)}. FOR SHARE conflicts with the claim's and the
 *     upsert's row lock and with the sweep's delete, so the insert and the claim/mark/sweep of the parent are
 *     ordered: either the insert goes first and the claim's mark, a later statement, sees the committed child; or
 *     the claim or delete goes first and the waiting check, re-evaluated on the newest version of the parent, finds
 *     {@code listed_by} too new or the row gone and inserts nothing ("skip this subtree"). The lock is only ever
 *     taken on a row that exists: a FOR SHARE that finds no row locks nothing, and PostgreSQL has no gap locks, so
 *     InnoDB's deadlock on locking absent rows (see dialect-mysql) cannot happen here.</li>
 * <li><b>Claim and listing</b>: the claim is an {@code UPDATE} of the directory's row; applying a listing first
 *     reads that row {@code FOR SHARE} ({@link PostgresStatements#lockedWhereConcurrent}) and writes nothing
 *     unless {@code listed_by} is still its scan. The two locks conflict, so a newer claim either waits for the
 *     listing's transaction to commit, or commits first and the listing, re-reading the newest version, sees it and
 *     applies nothing. The stale mark of a missing row and the sweep are single {@code UPDATE}s and {@code DELETE}s
 *     whose conditions ({@code scan_id <= :scan}, {@code scan_id = :scan AND stale = 1}) are re-checked on a
 *     concurrently changed row's newest version.</li>
 * </ul>
 * What can still fail is retried as a whole transaction by fsindex ({@link PostgresErrors#isRetryable}):
 * serialization failures (40001), deadlocks (40P01, e.g. two scans claiming the same subdirectories in different
 * orders) and lock timeouts (55P03). A foreign-key (23503) or unique (23505) violation should not occur given the above
 * (but for a {@code COPY} below a directory the scan inserted, where a newer partial scan's root can already be: the
 * retry then inserts), but if one does it is retried too, not skipped: a retry re-runs the whole directory's
 * transaction, whose checks then see the committed state and skip what must be skipped, so a directory's batch is
 * applied entirely or not at all. The same classification lets two processes creating the schema at once both succeed:
 * the loser's {@code CREATE TABLE} fails with 23505 on the catalog and its retry finds the schema in place. A
 * {@code CREATE} that fails with duplicate_table (42P07) is run again only if another connection has committed the schema
 * meanwhile (fsindex checks); otherwise a name is taken for good, and the error is reported at once.
 */
public final class PostgresDialect implements Dialect {
    private final PostgresConnections connections = new PostgresConnections();
    private final PostgresErrors errors = new PostgresErrors();
    private final PostgresStatements statements = new PostgresStatements();

    @Override
    public String name() {
        return "PostgreSQL";
    }

    @Override
    public boolean handlesJdbcUrl(String jdbcUrl) {
        return jdbcUrl != null && jdbcUrl.contains(":postgresql:");
    }

    @Override
    public SQLDialect sqlDialect() {
        return SQLDialect.POSTGRES;
    }

    @Override
    public Connections connections() {
        return connections;
    }

    @Override
    public ErrorClassifier errors() {
        return errors;
    }

    @Override
    public DialectStatements statements() {
        return statements;
    }

    /** {@code COPY FROM STDIN}, with ids taken from the identity's sequence first ({@link PostgresCopyLoader}). */
    @Override
    public BulkLoader bulkLoader(FsTables t) {
        return PostgresCopyLoader.forTables(t);
    }

    @Override
    public Optional<NameSearchIndex> nameSearchIndex() {
        return Optional.of(new PostgresNameSearch());
    }

    /**
     * NAMEDATALEN - 1: PostgreSQL cuts a longer name short (with only a notice), so two of fsindex's names could
     * become one.
     */
    @Override
    public int maxIdentifierLength() {
        return 63;
    }
}
