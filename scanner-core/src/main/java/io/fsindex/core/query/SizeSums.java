package io.fsindex.core.query;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.name;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * The sums a directory's size is made of, over the rows a statement reads through alias {@code r}: the apparent
 * bytes of its regular files, its regular files and its directories.
 */
final class SizeSums {
    private SizeSums() {
    }

    static Field<BigDecimal> bytes() {
        return DSL.sum(DSL.when(kind().eq(inline("FILE")), field(name("r", "size"), Long.class))
                .otherwise(inline(0L)));
    }

    static Field<BigDecimal> files() {
        return countOf("FILE");
    }

    static Field<BigDecimal> directories() {
        return countOf("DIRECTORY");
    }

    /** A sum column, which some engines return as a decimal, as a long; an empty sum is 0. */
    static long number(ResultSet rs, String column) throws SQLException {
        BigDecimal n = rs.getBigDecimal(column);
        return n == null ? 0 : n.longValueExact();
    }

    private static Field<BigDecimal> countOf(String kind) {
        return DSL.sum(DSL.when(kind().eq(inline(kind)), inline(1L)).otherwise(inline(0L)));
    }

    private static Field<String> kind() {
        return field(name("r", "kind"), String.class);
    }
}
