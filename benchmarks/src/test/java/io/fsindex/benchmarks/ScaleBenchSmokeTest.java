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

/**
 * Runs the scale scenario on a small tree (two process counts, scanner JVMs into an embedded PostgreSQL), so the
 * child processes, the sampling and the table cannot rot: it checks the rows, never the speed.
 */
class ScaleBenchSmokeTest {
    @TempDir
    Path work;

    @Test
    void aSmallRunPrintsARowPerProcessCountAndLeavesNothingBehind() throws IOException {
        StringWriter out = new StringWriter();
        StringWriter progress = new StringWriter();

        int code = ScaleBench.execute(new String[]{"--entries", "800", "--processes", "1,2", "--engines", "postgres",
                "--work-dir", work.toString()}, new PrintWriter(out), new PrintWriter(progress));

        String table = out.toString();
        assertThat(code).as("exit code; progress:%n%s%ntable:%n%s", progress, table).isZero();
        assertThat(table).contains("| feed-head wait (session-s)", "| retries");
        assertThat(table.lines().filter(l -> l.startsWith("| PostgreSQL | 1 |"))).hasSize(1);
        assertThat(table.lines().filter(l -> l.startsWith("| PostgreSQL | 2 |"))).hasSize(1);
        try (Stream<Path> left = Files.list(work)) {
            assertThat(left).isEmpty();
        }
    }
}
