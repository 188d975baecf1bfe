package io.fsindex.mysql;

import org.jooq.SQLDialect;

/**
 * The MariaDB 10.6+ dialect (InnoDB), for JDBC URLs containing {@code :mariadb:}, e.g.
 * {@code jdbc:mariadb://db.example:3306/fsindex}; given only a URL, fsindex pools connections with HikariCP through
 * MariaDB Connector/J. How the statements and the schema deal with InnoDB is described on the shared base class;
 * ids are never reused because MariaDB (since 10.2.4) persists the AUTO_INCREMENT counter across restarts.
 */
public final class MariaDbDialect extends InnoDbDialect {

    @Override
    public String name() {
        return "MariaDB";
    }

    @Override
    public SQLDialect sqlDialect() {
        return SQLDialect.MARIADB;
    }

    @Override
    String urlMarker() {
        return ":mariadb:";
    }

    @Override
    String driverClassName() {
        return "org.mariadb.jdbc.Driver";
    }

    @Override
    String recursionLimitVariable() {
        return "max_recursive_iterations";
    }
}
