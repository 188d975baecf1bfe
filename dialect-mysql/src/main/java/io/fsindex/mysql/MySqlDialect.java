package io.fsindex.mysql;

import com.mysql.cj.conf.PropertyKey;
import com.mysql.cj.conf.PropertySet;
import com.mysql.cj.conf.RuntimeProperty;
import com.mysql.cj.jdbc.JdbcConnection;
import com.mysql.cj.jdbc.JdbcStatement;
import io.fsindex.innodb.InnoDbDialect;
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
    protected String urlMarker() {
        return ":mysql:";
    }

    @Override
    protected String driverClassName() {
        return "com.mysql.cj.jdbc.Driver";
    }

    @Override
    protected String recursionLimitVariable() {
        return "cte_max_recursion_depth";
    }

    /** Connector/J then remembers the isolation level and autocommit it set instead of asking on every borrow. */
    @Override
    protected Map<String, String> extraDriverProperties() {
        // A batch of inserts (feed rows) goes as multi-row INSERTs (MariaDB's driver sends insert batches in bulk by
        // default).
        return Map.of("useLocalSessionState", "true", "rewriteBatchedStatements", "true");
    }

    /**
     * Whether Connector/J asks the server to allow local data at all: with {@code allowLoadLocalInfileInPath} (the
     * setting to prefer) or {@code allowLoadLocalInfile=true} on the JDBC URL; fsindex sets neither itself. With
     * either (and {@code local_infile=ON} on the server), fsindex loads new subtrees with
     * {@code LOAD DATA LOCAL INFILE} from memory; without, it inserts them. See {@link #sendLocalInfileFrom}.
     */
    @Override
    protected boolean driverAllowsLocalInfile(Connection c) throws SQLException {
        if (!c.isWrapperFor(JdbcConnection.class)) {
            return false;
        }
        PropertySet settings = c.unwrap(JdbcConnection.class).getPropertySet();
        return settings.getBooleanProperty(PropertyKey.allowLoadLocalInfile).getValue()
                || settings.getStringProperty(PropertyKey.allowLoadLocalInfileInPath).isExplicitlySet();
    }

    /**
     * Gives the statement's connection {@code text} as the local file and switches {@code allowLoadLocalInfile} on
     * for the statement: Connector/J then sends that text, and nothing else, whatever file the server names. With
     * {@code allowLoadLocalInfileInPath} as the opt-in, the driver sends nothing at any other time but files below
     * that path; {@link #stopSendingLocalInfile} switches back.
     */
    @Override
    protected void sendLocalInfileFrom(Statement s, InputStream text) throws SQLException {
        s.unwrap(JdbcStatement.class).setLocalInfileInputStream(text);
        allowLoadLocalInfile(s).setValue(true);
    }

    /**
     * Sets {@code allowLoadLocalInfile} back to what the connection was opened with, and forgets the text (the driver
     * would otherwise keep it, and send what is left of it, for as long as the connection lives).
     */
    @Override
    protected void stopSendingLocalInfile(Statement s) throws SQLException {
        s.unwrap(JdbcStatement.class).setLocalInfileInputStream(null);
        allowLoadLocalInfile(s).resetValue();
    }

    private static RuntimeProperty<Boolean> allowLoadLocalInfile(Statement s) throws SQLException {
        return s.getConnection().unwrap(JdbcConnection.class).getPropertySet()
                .getBooleanProperty(PropertyKey.allowLoadLocalInfile);
    }
}
