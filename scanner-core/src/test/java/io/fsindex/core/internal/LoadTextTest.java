package io.fsindex.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The text the bulk loaders read: what PostgreSQL's COPY and MySQL's LOAD DATA both parse back to the values. */
class LoadTextTest {

    @Test
    void rowsAreTabSeparatedLinesWithNullsAsBackslashN() throws Exception {
        LoadText text = new LoadText();
        text.value(7).value("a.txt").value((String) null).value(99L).endRow();
        text.value(8).value("l").value("t").value((Long) null).endRow();

        assertThat(new String(text.stream().readAllBytes(), StandardCharsets.UTF_8))
                .isEqualTo("7\ta.txt\t\\N\t99\n8\tl\tt\t\\N\n");
    }

    @Test
    void theCharactersTheFormatUsesAreEscapedAndTheRestIsUtf8() throws Exception {
        LoadText text = new LoadText();
        text.value(1).value("t\tn\nr\rb\\N ✓").value("x\\y\tz").endRow();

        assertThat(new String(text.stream().readAllBytes(), StandardCharsets.UTF_8))
                .isEqualTo("1\tt\\tn\\nr\\rb\\\\N ✓\tx\\\\y\\tz\n");
    }

    @Test
    void clearingStartsTheNextBatchEmpty() throws Exception {
        LoadText text = new LoadText();
        text.value(1).value("a").endRow();
        text.clear();
        text.value(2).endRow();

        assertThat(new String(text.stream().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("2\n");
    }
}
