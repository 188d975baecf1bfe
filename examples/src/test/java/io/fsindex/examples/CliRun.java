package io.fsindex.examples;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

/** Runs the command-line tool in this JVM, keeping what each run printed, for the CLI tests. */
final class CliRun {
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();

    /** Runs {@code fsindex args…}, forgetting what earlier runs printed; returns the exit code. */
    int run(String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return FsIndexCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    /** {@link #run}, with {@code environment} as the only environment the tool sees. */
    int runWith(Map<String, String> environment, String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return FsIndexCli.run(args, environment, new PrintWriter(out, true), new PrintWriter(err, true));
    }
}
