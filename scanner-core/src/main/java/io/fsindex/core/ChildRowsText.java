package io.fsindex.core;

import io.fsindex.api.FileStat;
import io.fsindex.core.spi.Dialect;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * New child rows written as the text a {@link Dialect.ChildLoader} reads, columns in {@link
 * Dialect.ChildLoader#columns} order; reused, one batch of rows at a time.
 */
final class ChildRowsText {
    /** The batch's text, encoded once when it is sent (not a String and a byte array per row). */
    private final StringBuilder line = new StringBuilder(1 << 16);
    private int rows;

    void add(long parent, String name, FileStat stat, Long fileKey, long scan) {
        line.append(parent).append('\t');
        escaped(name).append('\t').append(stat.kind().name()).append('\t').append(stat.size()).append('\t')
                .append(stat.mtimeNanos()).append('\t');
        if (stat.linkTarget() == null) {
            line.append("\\N");
        } else {
            escaped(stat.linkTarget());
        }
        line.append('\t').append(fileKey == null ? "\\N" : fileKey.toString()).append('\t').append(scan)
                .append('\t').append(stat.isDirectory() ? scan : 0).append('\n');   // a directory goes in claimed
        rows++;
    }

    private StringBuilder escaped(String value) {
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            switch (ch) {
                case '\\' -> line.append("\\\\");
                case '\t' -> line.append("\\t");
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                default -> line.append(ch);
            }
        }
        return line;
    }

    int rows() {
        return rows;
    }

    InputStream stream() {
        return new ByteArrayInputStream(line.toString().getBytes(StandardCharsets.UTF_8));
    }

    void clear() {
        line.setLength(0);
        rows = 0;
    }
}
