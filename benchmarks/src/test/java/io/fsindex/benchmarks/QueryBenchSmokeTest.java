package io.fsindex.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the query benchmark on a small tree, so it cannot rot: it checks the rows, never the speed. Without plocate,
 * which a machine with only a JDK and Maven lacks.
 */
class QueryBenchSmokeTest {
    @TempDir
    Path work;

    @Test
    void aSmallRunPrintsEveryQuestionAndLeavesNothingBehind() throws IOException {
        String table = SmokeRun.of(new QueryBench(), work, "--entries", "2000", "--runs", "1", "--pattern", "a",
                "--engines", "sqlite", "--no-plocate").tableLeavingNothingIn(work);

        assertThat(table).contains("| names containing \"a\"", "| du of the whole tree", "| size ≥ 10 KiB",
                "| cold scan with the name search index | SQLite",
                "| cold scan with the tree index (schema 7) | SQLite");
    }
}
