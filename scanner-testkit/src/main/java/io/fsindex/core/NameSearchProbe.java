package io.fsindex.core;

import io.fsindex.core.spi.NameSearchIndex;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Optional;

/** Asks a database, outside fsindex's handles, whether an index's optional name search index is there. */
public final class NameSearchProbe {
    private NameSearchProbe() {
    }

    /** Whether the engine behind {@code jdbcUrl} has a name search index at all. */
    public static boolean engineHasOne(String jdbcUrl) {
        return Dialects.forUrl(jdbcUrl).nameSearchIndex().isPresent();
    }

    /** Whether the tables with {@code prefix} have their name search index now. */
    public static boolean present(String jdbcUrl, String user, String password, String prefix) throws SQLException {
        Optional<NameSearchIndex> index = Dialects.forUrl(jdbcUrl).nameSearchIndex();
        if (index.isEmpty()) {
            return false;
        }
        try (Connection c = DriverManager.getConnection(jdbcUrl, user, password)) {
            return index.get().exists(c, prefix);
        }
    }
}
