package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/** {@link PostgresWatchTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysWatchTest extends PostgresWatchTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }

    // A known defect of this mode, stated in the README: the index does not converge (a directory's entries stay
    // missing) when another process scans the root in full while the watch runs. Disabled so that it shows in the
    // report as skipped with this reason until it is fixed.
    @Override
    @Test
    @Disabled("known defect with plain foreign keys: a watch beside another process's full scans can leave a"
            + " directory's entries missing (README, plainForeignKeys)")
    protected void fullScansFromAnotherProcessWhileTheWatchRunsBreakNoGuarantee() {
    }
}
