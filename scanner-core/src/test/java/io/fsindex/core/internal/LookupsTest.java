package io.fsindex.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.core.spi.Connections;
import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.ErrorClassifier;
import io.fsindex.core.spi.FsTables;
import java.sql.SQLException;
import java.util.List;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * The lookup's plain SQL must be what jOOQ renders for the same reads, for every built-in dialect's jOOQ dialect and
 * any prefix, so that skipping jOOQ changes nothing but the time a fresh JVM takes.
 */
class LookupsTest {
    private static final List<String> PREFIXES = List.of(FsTables.DEFAULT_PREFIX, "app_idx_", "App_", "_");

    @Test
    void theLookupsPlainSqlIsWhatJooqRendersForEveryBuiltInDialect() {
        for (SQLDialect engine : List.of(SQLDialect.SQLITE, SQLDialect.POSTGRES, SQLDialect.MYSQL,
                SQLDialect.MARIADB)) {
            for (String prefix : PREFIXES) {
                FsTables t = new FsTables(prefix);
                Lookups plain = new Lookups(new TableNames(prefix));
                assertThat(plain.byId().sql()).as(engine + " " + prefix)
                        .isEqualTo(unquoted(byIdAsJooqRendersIt(engine, t)));
            }
        }
    }

    @Test
    void tableNamesAreFsTablesNamesAndRefuseWhatItRefuses() {
        for (String prefix : PREFIXES) {
            FsTables t = new FsTables(prefix);
            TableNames n = new TableNames(prefix);
            assertThat(List.of(n.prefix, n.filesName(), n.scansName(), n.contentsName(), n.changesName(),
                    n.changeDirsName(), n.feedName(), n.schemaName())).containsExactly(t.prefix, t.filesName(),
                    t.scansName(), t.contentsName(), t.changesName(), t.changeDirsName(), t.feedName(),
                    t.schemaName());
        }
        for (String bad : List.of("", "1x", "a-b", "a b")) {
            assertThatThrownBy(() -> new FsTables(bad)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new TableNames(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + bad + "'");
        }
    }

    @Test
    void lazyMakesItsValueOnceOnFirstUse() {
        int[] made = {0};
        Lazy<String> lazy = new Lazy<>(() -> "made " + ++made[0]);
        assertThat(made[0]).isZero();
        assertThat(lazy.get()).isEqualTo("made 1");
        assertThat(lazy.get()).isEqualTo("made 1");
        assertThat(made[0]).isEqualTo(1);
    }

    /**
     * jOOQ quotes a name that starts with an underscore on SQLite ({@code "_files"}), which SQLite reads as the same
     * name unquoted; no statement here has another quote.
     */
    private static String unquoted(String sql) {
        return sql.replace("\"", "");
    }

    /** {@code Queries}' select of one live entry with its content values, as it was rendered before the lookup's. */
    private static String byIdAsJooqRendersIt(SQLDialect engine, FsTables t) {
        var ctx = Statements.context(new TestDialect(engine));
        List<org.jooq.Field<?>> columns = List.of(t.id, t.parent, t.name, t.kind, t.size, t.mtime, t.linkTarget,
                t.scanId, t.listedBy, t.stale, t.fileKey, t.goneAt, t.fingerprint, t.contentHash);
        List<org.jooq.Field<?>> inR = columns.stream().<org.jooq.Field<?>>map(c -> r(c)).toList();
        return Sql.render(ctx, ctx.select(inR).from(t.files.as("r")).where(r(t.id).eq(DSL.param("id", Long.class)))
                .and(r(t.goneAt).isNull())).sql();
    }

    private static <T> org.jooq.Field<T> r(org.jooq.Field<T> column) {
        return DSL.field(DSL.name("r", column.getName()), column.getType());
    }

    private record TestDialect(SQLDialect sqlDialect) implements Dialect {
        @Override
        public String name() {
            return sqlDialect.getName();
        }

        @Override
        public boolean handlesJdbcUrl(String jdbcUrl) {
            return false;
        }

        @Override
        public Connections connections() {
            throw new UnsupportedOperationException();
        }

        @Override
        public ErrorClassifier errors() {
            return e -> false;
        }
    }
}
