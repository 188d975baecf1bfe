package io.fsindex.postgres;

import io.fsindex.testkit.SchemaCreationConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The tables a new index gets equal those every version's script leaves, on a real PostgreSQL server (see
 * {@link PostgresTestServer}), with the constraints, triggers and functions the JDBC metadata does not show.
 */
class PostgresSchemaCreationTest extends SchemaCreationConformanceTest {
    /** Constraints, triggers and the functions they call, for the tables and functions a prefix starts. */
    private static final String CATALOG = """
            SELECT 'constraint ' || c.relname || ' ' || con.conname || ' ' || pg_get_constraintdef(con.oid)
              FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid
             WHERE c.relnamespace = current_schema()::regnamespace AND left(c.relname, length(?)) = ?
            UNION ALL
            SELECT 'trigger ' || pg_get_triggerdef(t.oid)
              FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
             WHERE NOT t.tgisinternal
               AND c.relnamespace = current_schema()::regnamespace AND left(c.relname, length(?)) = ?
            UNION ALL
            SELECT 'function ' || pg_get_functiondef(p.oid)
              FROM pg_proc p
             WHERE p.pronamespace = current_schema()::regnamespace AND left(p.proname, length(?)) = ?""";

    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }

    @Override
    protected List<String> engineCatalog(Connection c, String prefix) throws SQLException {
        List<String> facts = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(CATALOG)) {
            for (int i = 1; i <= 6; i++) {
                s.setString(i, prefix);
            }
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    facts.add(rs.getString(1));
                }
            }
        }
        return facts;
    }
}
