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
 * Runs the startup benchmark once on a small index against the command-line tool the examples module built (its
 * launcher script, archive and jar), so the command cannot rot and the script answers {@code info} with and without a
 * locale: it checks the rows, never the speed.
 */
class StartupSmokeTest {
    @TempDir
    Path work;

    @Test
    void oneRunTimesEveryProcessAndLeavesNothingBehind() throws IOException {
        StringWriter out = new StringWriter();
        StringWriter progress = new StringWriter();

        int code = Startup.execute(new String[]{"--runs", "1", "--entries", "200", "--cli-dir",
                Path.of("..", "examples", "target").toString(), "--work-dir", work.toString()},
                new PrintWriter(out), new PrintWriter(progress));

        assertThat(code).as("exit code; output:%n%s%nprogress:%n%s", out, progress).isZero();
        assertThat(out.toString()).contains("| `java -version` |", "| `build()` + `lookup(path)` on SQLite",
                "| `fsindex info`, `LANG=C.UTF-8` |", "| `fsindex info`, no locale set |",
                "| `java -jar fsindex.jar info`, no locale set |",
                "| `build()` + `lookup(path)`, JVM set up as the launcher sets up its own",
                "| an empty `main` (`StartupFloor`)");
        try (Stream<Path> left = Files.list(work)) {
            assertThat(left).isEmpty();
        }
    }
}
