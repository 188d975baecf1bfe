package io.fsindex.core.internal;

import io.fsindex.core.spi.BulkLoader;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Rows written as the text a {@link BulkLoader} reads, one value after another in the order of the columns
 * it loads ({@link BulkLoader#columns} or {@link BulkLoader#changeColumns}); reused, one batch of
 * rows at a time.
 */
public final class LoadText {
    /** The batch's text, encoded once when it is sent (not a String and a byte array per row). */
    private final StringBuilder text = new StringBuilder(1 << 16);
    private boolean rowStarted;

    public LoadText value(long value) {
        separate().append(value);
        return this;
    }

    /** Appends a value that may be null. */
    public LoadText value(Long value) {
        return value == null ? value((String) null) : value(value.longValue());
    }

    /** Appends a value that may be null, escaping the characters the format uses. */
    public LoadText value(String value) {
        separate();
        if (value == null) {
            text.append("\\N");
            return this;
        }
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            switch (ch) {
                case '\\' -> text.append("\\\\");
                case '\t' -> text.append("\\t");
                case '\n' -> text.append("\\n");
                case '\r' -> text.append("\\r");
                default -> text.append(ch);
            }
        }
        return this;
    }

    /** Ends the row whose values were appended since the last one. */
    public void endRow() {
        text.append('\n');
        rowStarted = false;
    }

    private StringBuilder separate() {
        if (rowStarted) {
            text.append('\t');
        }
        rowStarted = true;
        return text;
    }

    public InputStream stream() {
        return new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.UTF_8));
    }

    public void clear() {
        text.setLength(0);
        rowStarted = false;
    }
}
