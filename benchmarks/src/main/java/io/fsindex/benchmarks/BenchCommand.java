package io.fsindex.benchmarks;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;

/** A benchmark command line: picocli parses it, the table goes to one stream and progress to another. */
abstract class BenchCommand implements Callable<Integer> {
    /** Where the command prints its table. */
    PrintWriter out;
    /** Where it says what it is doing. */
    PrintWriter progress;

    /** Runs {@code command} on the process's standard streams and exits with its code. */
    static void main(BenchCommand command, String[] args) {
        System.exit(execute(command, args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs {@code command} with the table going to {@code out} and progress to {@code progress}. */
    static int execute(BenchCommand command, String[] args, PrintWriter out, PrintWriter progress) {
        command.out = out;
        command.progress = progress;
        CommandLine cli = new CommandLine(command);
        cli.setOut(out);
        cli.setErr(progress);
        return cli.execute(args);
    }
}
