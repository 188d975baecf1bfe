package io.fsindex.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the query benchmark on a small tree, so it cannot rot: it checks the rows, never the speed. */
class QueryBenchSmokeTest {
    @TempDir
    Path work;

    @Test
    void aSmallRunPrintsEveryQuestionAndLeavesNothingBehind() throws IOException {
        StringWriter out = new StringWriter();
        StringWriter progress = new StringWriter();

        int code = QueryBench.execute(new String[]{"--entries", "2000", "--runs", "1", "--pattern", "a",
                "--engines", "sqlite", "--work-dir", work.toString()}, new PrintWriter(out),
                new PrintWriter(progress));

        assertThat(code).as("exit code; progress:%n%s", progress).isZero();
        assertThat(out.toString()).contains("| names containing \"a\"", "| du of the whole tree", "| size ≥ 10 KiB",
                "| cold scan with the name search index | SQLite");
        try (Stream<Path> left = Files.list(work)) {
            assertThat(left).isEmpty();
        }
    }
}
