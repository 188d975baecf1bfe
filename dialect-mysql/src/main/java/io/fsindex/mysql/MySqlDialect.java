package io.fsindex.mysql;

import com.mysql.cj.conf.PropertyKey;
import com.mysql.cj.jdbc.JdbcConnection;
import com.mysql.cj.jdbc.JdbcStatement;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.jooq.SQLDialect;

/**
 * The MySQL 8.0+ dialect (InnoDB), for JDBC URLs containing {@code :mysql:}, e.g.
 * {@code jdbc:mysql://db.example:3306/fsindex}; given only a URL, fsindex pools connections with HikariCP through
 * MySQL Connector/J. How the statements and the schema deal with InnoDB is described on the shared base class;
 * ids are never reused because MySQL 8.0 persists the AUTO_INCREMENT counter across restarts.
 */
public final class MySqlDialect extends InnoDbDialect {

    @Override
    public String name() {
        return "MySQL";
    }

    @Override
    public SQLDialect sqlDialect() {
        return SQLDialect.MYSQL;
    }

    @Override
    String urlMarker() {
        return ":mysql:";
    }

    @Override
    String driverClassName() {
        return "com.mysql.cj.jdbc.Driver";
    }

    @Override
    String recursionLimitVariable() {
        return "cte_max_recursion_depth";
    }

    /** Connector/J then remembers the isolation level and autocommit it set instead of asking on every borrow. */
    @Override
    Map<String, String> extraDriverProperties() {
        // A batch of inserts (feed rows) goes as multi-row INSERTs (MariaDB's driver sends insert batches in bulk by
        // default).
        return Map.of("useLocalSessionState", "true", "rewriteBatchedStatements", "true");
    }

    /**
     * Connector/J sends local files only with {@code allowLoadLocalInfile=true}, which it leaves off because the
     * server may then ask for any file the application can read, and fsindex does not turn it on. With it on the JDBC
     * URL (and {@code local_infile=ON} on the server), fsindex loads new subtrees with {@code LOAD DATA LOCAL INFILE}
     * from memory; without, it inserts them.
     */
    @Override
    boolean driverAllowsLocalInfile(Connection c) throws SQLException {
        return c.isWrapperFor(JdbcConnection.class) && c.unwrap(JdbcConnection.class).getPropertySet()
                .getBooleanProperty(PropertyKey.allowLoadLocalInfile).getValue();
    }

    @Override
    void sendLocalInfileFrom(Statement s, InputStream text) throws SQLException {
        s.unwrap(JdbcStatement.class).setLocalInfileInputStream(text);
    }
}
