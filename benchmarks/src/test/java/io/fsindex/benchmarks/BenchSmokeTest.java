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
 * Runs the benchmark command as CI can afford (--smoke: 2,000 entries, SQLite only), so the command, the generator and
 * the table cannot rot unnoticed. It checks that every scenario ran and reported a ratio, never how fast: speed is
 * judged by a full run on a quiet machine (docs/benchmarks.md), not by a test.
 */
class BenchSmokeTest {
    @TempDir
    Path work;

    @Test
    void theSmokeRunPrintsOneTableWithEveryScenarioAndLeavesNothingBehind() throws IOException {
        StringWriter out = new StringWriter();
        StringWriter progress = new StringWriter();

        int code = Bench.execute(new String[]{"--smoke", "--work-dir", work.toString()}, new PrintWriter(out),
                new PrintWriter(progress));

        String table = out.toString();
        assertThat(code).as("exit code; progress:%n%s%ntable:%n%s", progress, table).isZero();
        // Columns are padded to their widest value: a ratio of 100 or more (a loaded machine) widens its header.
        assertThat(table).contains("| scenario", "| entries/s", "| peak heap").containsPattern("\\| +ratio \\|");
        for (String scenario : new String[]{"baseline: ", "cold scan (empty index)", "rescan, nothing changed",
                "rescan after churn", "cold scan (N/10 tree)", "growth: cold scan N ÷ N/10",
                "cold scan, one directory", "cold scan, the huge directory's parent",
                "cold scan, huge directory as root", "huge root ÷ its parent"}) {
            assertThat(table.lines().filter(l -> l.startsWith("| " + scenario) && l.contains("| SQLite")))
                    .as("a row for %s in%n%s", scenario, table).hasSize(1);
        }
        assertThat(table).doesNotContain("FAILED", "Unexpected");
        assertThat(table).contains("Churn (run 1): ");
        try (Stream<Path> left = Files.list(work)) {
            assertThat(left).as("generated trees and databases are deleted").isEmpty();
        }
    }
}
