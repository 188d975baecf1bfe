package io.fsindex.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.core.spi.Connections;
import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.DialectStatements;
import io.fsindex.core.spi.ErrorClassifier;
import io.fsindex.core.spi.FsTables;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Function;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.SQLDialect;
import org.jooq.conf.ParamType;
import org.junit.jupiter.api.Test;

/** How a statement rendered with named parameters becomes the positional SQL the driver receives. */
class SqlTest {

    @Test
    void eachNamedParameterBecomesAPlaceholderAndARepeatedNameIsBoundAtEveryPosition() throws SQLException {
        Sql sql = Sql.parse("select :a, :b_2, :a where :b_2 is not null");
        assertThat(sql.sql()).isEqualTo("select ?, ?, ? where ? is not null");

        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
             Sql.Bound q = sql.prepare(c)) {
            assertThat(q.has("a")).isTrue();
            assertThat(q.has("c")).isFalse();
            q.set("a", 1).set("b_2", "two");
            try (ResultSet rs = q.statement.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(List.of(rs.getString(1), rs.getString(2), rs.getString(3)))
                        .containsExactly("1", "two", "1");
            }
        }
    }

    @Test
    void aNullStringIsBoundAsSqlNull() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
             Sql.Bound q = Sql.parse("select :v is null").prepare(c)) {
            q.set("v", (String) null);
            try (ResultSet rs = q.statement.executeQuery()) {
                rs.next();
                assertThat(rs.getBoolean(1)).isTrue();
            }
        }
    }

    @Test
    void colonsInsideQuotesAreLeftAlone() {
        assertThat(Sql.parse("select ':x', \"a:b\", `c:d`, :y").sql())
                .isEqualTo("select ':x', \"a:b\", `c:d`, ?");
        // A doubled quote is an escaped quote, not the end of the literal.
        assertThat(Sql.parse("select 'it''s :z', :w").sql()).isEqualTo("select 'it''s :z', ?");
        assertThat(Sql.parse("select \"say \"\":q\"\"\" from t where a = :a").sql())
                .isEqualTo("select \"say \"\":q\"\"\" from t where a = ?");
    }

    @Test
    void aDoubleColonCastIsNotAParameter() {
        assertThat(Sql.parse("select :v::bigint, 1::int").sql()).isEqualTo("select ?::bigint, 1::int");
    }

    @Test
    void aColonNotFollowedByANameIsKept() {
        assertThat(Sql.parse("select 'x' || ':' , 1 :").sql()).isEqualTo("select 'x' || ':' , 1 :");
        assertThat(Sql.parse("select a : b").sql()).isEqualTo("select a : b");
    }

    @Test
    void unnamedOrUnterminatedInputIsRefused() {
        assertThatThrownBy(() -> Sql.parse("select :1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unnamed parameter");
        assertThatThrownBy(() -> Sql.parse("select 'open")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unterminated quote");
    }

    @Test
    void bindingANameTheStatementDoesNotHaveFailsNamingIt() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
             Sql.Bound q = Sql.parse("select :a").prepare(c)) {
            assertThatThrownBy(() -> q.set("b", 1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no parameter :b");
        }
    }

    /**
     * Core renders with named parameters and parses them into placeholders; the result must be exactly what jOOQ
     * itself renders with indexed parameters, for every statement a dialect supplies.
     */
    @Test
    void renderingNamedThenParsingEqualsJooqsOwnPositionalRendering() {
        Dialect dialect = new TestDialect();
        FsTables t = new FsTables("fsindex_");
        DSLContext ctx = Statements.context(dialect);
        DialectStatements own = dialect.statements();
        for (Function<FsTables, Query> statement : List.<Function<FsTables, Query>>of(own::upsertChild,
                own::upsertTopLevel, own::claimDirectory, tables -> own.insertChildren(tables, 2))) {
            Query q = statement.apply(t);
            assertThat(Sql.render(ctx, q).sql()).isEqualTo(ctx.renderContext().paramType(ParamType.INDEXED)
                    .visit(q).render());
        }
    }

    /** The statements every dialect inherits, rendered for SQLite, without depending on the SQLite module. */
    private static final class TestDialect implements Dialect {
        @Override
        public String name() {
            return "test";
        }

        @Override
        public boolean handlesJdbcUrl(String jdbcUrl) {
            return false;
        }

        @Override
        public SQLDialect sqlDialect() {
            return SQLDialect.SQLITE;
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
