package io.fsindex.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * One small run of a benchmark command in a work directory of its own, for the smoke tests, which check the rows it
 * prints and that it leaves nothing behind, never its speed.
 */
record SmokeRun(int code, String table, String progress) {

    /** Runs {@code command} on {@code args} with {@code --work-dir work}. */
    static SmokeRun of(BenchCommand command, Path work, String... args) {
        StringWriter out = new StringWriter();
        StringWriter progress = new StringWriter();
        String[] all = Stream.concat(Stream.of(args), Stream.of("--work-dir", work.toString())).toArray(String[]::new);
        int code = BenchCommand.execute(command, all, new PrintWriter(out), new PrintWriter(progress));
        return new SmokeRun(code, out.toString(), progress.toString());
    }

    /** Checks that the run succeeded and left {@code work} empty, and returns the table it printed. */
    String tableLeavingNothingIn(Path work) throws IOException {
        assertThat(code).as("exit code; progress:%n%s%ntable:%n%s", progress, table).isZero();
        try (Stream<Path> left = Files.list(work)) {
            assertThat(left).isEmpty();
        }
        return table;
    }
}
