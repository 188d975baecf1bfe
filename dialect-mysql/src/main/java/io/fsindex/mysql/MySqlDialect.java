package io.fsindex.mysql;

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
}
