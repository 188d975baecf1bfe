package io.fsindex.benchmarks;

import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One scanner process of the scale scenario ({@link ScaleBench}): opens the index, says {@code ready} on standard
 * output, waits for a line on standard input, then cold-scans each of its subtrees in turn and prints
 * {@code done <entries added> <transaction retries> <seconds> <CPU seconds of this process>}.
 * <pre>
 * java -cp benchmarks.jar io.fsindex.benchmarks.ScaleChild URL USER PASSWORD PREFIX POOL SUBTREE...
 * </pre>
 */
public final class ScaleChild {
    private ScaleChild() {
    }

    public static void main(String[] args) throws Exception {
        FsIndex.Builder builder = FsIndex.builder().jdbcUrl(args[0]).tablePrefix(args[3])
                .maxPoolSize(Integer.parseInt(args[4]));
        if (!args[1].isEmpty()) {
            builder.user(args[1]);
        }
        if (!args[2].isEmpty()) {
            builder.password(args[2]);
        }
        try (FsIndex index = builder.build()) {
            System.out.println("ready");
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            long start = System.nanoTime();
            long added = 0;
            for (int i = 5; i < args.length; i++) {
                ScanResult r = index.scan(Path.of(args[i]));
                if (!r.isClean()) {
                    throw new IllegalStateException("scan of " + args[i] + " had errors: " + r.errors());
                }
                added += r.added();
            }
            double cpu = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getProcessCpuTime() / 1e9;
            System.out.printf(Locale.ROOT, "done %d %d %.3f %.3f%n", added, index.transactionRetries(),
                    (System.nanoTime() - start) / 1e9, cpu);
        }
    }
}
