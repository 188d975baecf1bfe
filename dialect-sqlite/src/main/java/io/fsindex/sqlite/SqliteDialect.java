package io.fsindex.sqlite;

import io.fsindex.core.spi.Connections;
import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.DialectStatements;
import io.fsindex.core.spi.ErrorClassifier;
import io.fsindex.core.spi.NameSearchIndex;
import java.util.Optional;
import org.jooq.SQLDialect;

/**
 * The SQLite dialect, fsindex's embedded default. Every connection runs with {@code foreign_keys=ON} (without it
 * the cascading sweep silently deletes nothing below a directory) and a busy timeout; the database uses WAL so
 * readers never block the writer; every write transaction starts with {@code BEGIN IMMEDIATE}, taking the write lock
 * up front, so two writers never deadlock upgrading a read lock ({@link SqliteConnections}). Ids come from
 * {@code AUTOINCREMENT} and are never reused.
 */
public final class SqliteDialect implements Dialect {
    private final SqliteErrors errors = new SqliteErrors();
    private final SqliteConnections connections = new SqliteConnections(errors);
    private final SqliteStatements statements = new SqliteStatements();

    @Override
    public String name() {
        return "SQLite";
    }

    @Override
    public boolean handlesJdbcUrl(String jdbcUrl) {
        return jdbcUrl != null && jdbcUrl.contains(":sqlite:");
    }

    @Override
    public SQLDialect sqlDialect() {
        return SQLDialect.SQLITE;
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

    @Override
    public Optional<NameSearchIndex> nameSearchIndex() {
        return Optional.of(new SqliteNameSearch());
    }
}
