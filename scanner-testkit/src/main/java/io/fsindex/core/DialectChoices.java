package io.fsindex.core;

/** What the dialect behind a JDBC URL chose where fsindex lets a dialect choose how a question is answered. */
public final class DialectChoices {
    private DialectChoices() {
    }

    /**
     * Whether the size of a directory holding every live row but its ancestors is summed over the whole table in one
     * statement (else its directories are walked).
     */
    public static boolean sumsSoleSubtreesInOnePass(String jdbcUrl) {
        return Dialects.forUrl(jdbcUrl).statements().sumsSoleSubtreesInOnePass();
    }
}
