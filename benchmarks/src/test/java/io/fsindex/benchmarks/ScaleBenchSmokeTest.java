package io.fsindex.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
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
        String table = SmokeRun.of(new ScaleBench(), work, "--entries", "800", "--processes", "1,2", "--engines",
                "postgres").tableLeavingNothingIn(work);

        assertThat(table).contains("| feed-head wait (session-s)", "| retries");
        assertThat(table.lines().filter(l -> l.startsWith("| PostgreSQL | 1 |"))).hasSize(1);
        assertThat(table.lines().filter(l -> l.startsWith("| PostgreSQL | 2 |"))).hasSize(1);
    }
}
