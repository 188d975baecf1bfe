package io.fsindex.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.FileKind;
import io.fsindex.api.FileStat;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The text the bulk loaders read: what PostgreSQL's COPY and MySQL's LOAD DATA both parse back to the values. */
class ChildRowsTextTest {

    @Test
    void rowsAreTabSeparatedLinesWithNullsAsBackslashN() throws Exception {
        ChildRowsText text = new ChildRowsText();
        text.add(7, "a.txt", new FileStat(FileKind.FILE, 12, 34, null, null), 99L, 5);
        text.add(7, "l", new FileStat(FileKind.SYMLINK, 1, 2, "t", null), null, 5);

        assertThat(text.rows()).isEqualTo(2);
        assertThat(new String(text.stream().readAllBytes(), StandardCharsets.UTF_8))
                .isEqualTo("7\ta.txt\tFILE\t12\t34\t\\N\t99\t5\t0\n"
                        + "7\tl\tSYMLINK\t1\t2\tt\t\\N\t5\t0\n");
    }

    @Test
    void theCharactersTheFormatUsesAreEscapedInNamesAndLinkTargetsAndTheRestIsUtf8() throws Exception {
        ChildRowsText text = new ChildRowsText();
        text.add(1, "t\tn\nr\rb\\N ✓", new FileStat(FileKind.SYMLINK, 0, 0, "x\\y\tz", null), null, 2);

        assertThat(new String(text.stream().readAllBytes(), StandardCharsets.UTF_8))
                .isEqualTo("1\tt\\tn\\nr\\rb\\\\N ✓\tSYMLINK\t0\t0\tx\\\\y\\tz\t\\N\t2\t0\n");
    }

    /** A directory goes in claimed by the scan that inserts it (listed_by), as the claim right after would do. */
    @Test
    void aDirectoryGoesInListedByTheScan() throws Exception {
        ChildRowsText text = new ChildRowsText();
        text.add(3, "d", new FileStat(FileKind.DIRECTORY, 0, 9, null, null), 4L, 8);

        assertThat(new String(text.stream().readAllBytes(), StandardCharsets.UTF_8))
                .isEqualTo("3\td\tDIRECTORY\t0\t9\t\\N\t4\t8\t8\n");
    }

    @Test
    void clearingStartsTheNextBatchEmpty() throws Exception {
        ChildRowsText text = new ChildRowsText();
        text.add(1, "a", new FileStat(FileKind.FILE, 0, 0, null, null), null, 2);
        text.clear();

        assertThat(text.rows()).isZero();
        assertThat(text.stream().readAllBytes()).isEmpty();
    }
}
