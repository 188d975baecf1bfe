package io.fsindex.examples;

import io.fsindex.core.scan.FileNameEncoding;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Makes a command-line program's JVM read file names as UTF-8. A JVM started without a UTF-8 locale (no
 * {@code LANG} or {@code LC_*}, as under cron, systemd or in most containers) reads names as ASCII and cannot scan a
 * tree holding one non-ASCII name; the library refuses to. So the program starts itself again with
 * {@code LC_ALL=C.UTF-8}: same java binary, JVM options, class path, main class and arguments, the terminal passed
 * through, the child's exit code returned.
 *
 * <p>The arguments travel in {@link #ARGUMENTS}, not only on the child's command line: this JVM encodes a command
 * line as ASCII, which would turn {@code café} into {@code caf??}, so each argument's original bytes (read from
 * {@code /proc/self/cmdline} where there is one) are passed base64-encoded. That variable also marks the child as
 * relaunched: a child that still cannot read UTF-8 (the C.UTF-8 locale is not installed) says so and stops rather
 * than starting itself again.
 */
final class Utf8Relaunch {
    /** Set in the relaunched child: its arguments' bytes, each base64-encoded, separated by commas. */
    static final String ARGUMENTS = "FSINDEX_UTF8_RELAUNCH_ARGS";
    static final String LOCALE = "C.UTF-8";

    private Utf8Relaunch() {
    }

    /**
     * Returns the arguments to run with if this JVM reads names as UTF-8. Otherwise runs {@code main} in a child JVM
     * that does and exits with its exit code, or, if this already is such a child, prints why it cannot and exits
     * with 1; either way this method does not return then.
     */
    static String[] utf8OrRelaunch(Class<?> main, String[] args) {
        String relaunched = System.getenv(ARGUMENTS);
        if (FileNameEncoding.isUtf8()) {
            return relaunched == null ? args : decode(relaunched);
        }
        if (relaunched != null) {
            System.err.println("fsindex: this JVM cannot read file names as UTF-8, even started again with LC_ALL="
                    + LOCALE + " (is that locale installed?); set a UTF-8 locale, e.g. LC_ALL=en_US.UTF-8");
            System.exit(1);
        }
        System.exit(relaunch(main, args));
        throw new AssertionError("unreachable");
    }

    private static int relaunch(Class<?> main, String[] args) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        // These already hold the options JAVA_TOOL_OPTIONS and JDK_JAVA_OPTIONS gave; the child does not read those.
        command.addAll(childJvmOptions(ManagementFactory.getRuntimeMXBean().getInputArguments(),
                Runtime.version().feature()));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(Arrays.asList(args));    // for ps: lossy outside ASCII, the child reads ARGUMENTS instead
        ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
        Map<String, String> env = pb.environment();
        env.remove("JAVA_TOOL_OPTIONS");
        env.remove("JDK_JAVA_OPTIONS");
        env.put("LC_ALL", LOCALE);
        env.put(ARGUMENTS, encode(originalBytes(args)));
        ChildHolder holder = new ChildHolder();
        // SIGINT or SIGTERM to this JVM ends the child the same way and waits for it to clean up (a scan records
        // itself as cancelled rather than being cut off). Registered before the child starts, so no signal finds
        // the child running and this JVM without the hook.
        Thread stopChild = new Thread(holder::stop, "fsindex-stop-child");
        Runtime.getRuntime().addShutdownHook(stopChild);
        Process child;
        try {
            child = holder.start(pb);
        } catch (IOException e) {
            System.err.println("fsindex: cannot start the JVM again with LC_ALL=" + LOCALE + " to read file names"
                    + " as UTF-8 (" + e.getMessage() + "); set a UTF-8 locale, e.g. LC_ALL=C.UTF-8");
            return 1;
        }
        if (child == null) {
            return 1;   // this JVM is shutting down: the hook ran before there was a child to stop
        }
        int exit = child.onExit().join().exitValue();
        try {
            Runtime.getRuntime().removeShutdownHook(stopChild);
        } catch (IllegalStateException shuttingDown) {
            // The hook is already running and waits for the same child.
        }
        return exit;
    }

    /**
     * The child's JVM options: this JVM's, and on Java 22 and later native access for the class path, which the
     * jar's manifest gives a JVM started with {@code -jar} but not the child, started with {@code -cp}: without it
     * Java 24 and later warn on every start that the SQLite driver loads its native library. Older JVMs do not
     * know the option and would not start.
     */
    static List<String> childJvmOptions(List<String> parentOptions, int javaFeatureVersion) {
        List<String> options = new ArrayList<>(parentOptions);
        boolean given = options.stream().anyMatch(o -> o.startsWith("--enable-native-access"));
        if (javaFeatureVersion >= 22 && !given) {
            options.add("--enable-native-access=ALL-UNNAMED");
        }
        return options;
    }

    /** The child, started and stopped under one lock so a shutdown cannot slip between starting and stopping. */
    private static final class ChildHolder {
        private Process child;
        private boolean stopping;

        synchronized Process start(ProcessBuilder pb) throws IOException {
            if (!stopping) {
                child = pb.start();
            }
            return child;
        }

        void stop() {
            Process p;
            synchronized (this) {
                stopping = true;
                p = child;
            }
            if (p != null) {
                p.destroy();
                p.onExit().join();
            }
        }
    }

    /**
     * Each argument's bytes as the launcher received them. The launcher decoded them as ASCII, each byte outside
     * ASCII becoming one replacement character, so the last {@code args.length} entries of {@code /proc/self/cmdline}
     * are taken if they match the arguments byte for character; otherwise (no {@code /proc}, or arguments the
     * launcher read from an {@code @file}) the decoded arguments are all there is.
     */
    static byte[][] originalBytes(String[] args) {
        byte[][] decoded = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            decoded[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        List<byte[]> cmdline;
        try {
            cmdline = split(Files.readAllBytes(Path.of("/proc/self/cmdline")));
        } catch (IOException | RuntimeException unavailable) {
            return decoded;
        }
        if (cmdline.size() < args.length) {
            return decoded;
        }
        List<byte[]> tail = cmdline.subList(cmdline.size() - args.length, cmdline.size());
        for (int i = 0; i < args.length; i++) {
            if (!sameArgument(tail.get(i), args[i])) {
                return decoded;
            }
        }
        return tail.toArray(byte[][]::new);
    }

    /** True if {@code decoded} is what a single-byte decoding of {@code raw} gives: same length, same ASCII. */
    private static boolean sameArgument(byte[] raw, String decoded) {
        if (raw.length != decoded.length()) {
            return false;
        }
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] >= 0 && raw[i] != decoded.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static List<byte[]> split(byte[] nulTerminated) {
        List<byte[]> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < nulTerminated.length; i++) {
            if (nulTerminated[i] == 0) {
                out.add(Arrays.copyOfRange(nulTerminated, start, i));
                start = i + 1;
            }
        }
        return out;
    }

    private static String encode(byte[][] args) {
        StringBuilder out = new StringBuilder();
        for (byte[] arg : args) {
            out.append(Base64.getEncoder().encodeToString(arg)).append(',');
        }
        return out.toString();
    }

    /** The arguments {@link #encode} packed, read as UTF-8 (this JVM's file-name encoding, as just checked). */
    private static String[] decode(String packed) {
        if (packed.isEmpty()) {
            return new String[0];
        }
        String[] parts = packed.split(",", -1);
        String[] args = new String[parts.length - 1];   // every argument ends with a comma
        for (int i = 0; i < args.length; i++) {
            args[i] = new String(Base64.getDecoder().decode(parts[i]), StandardCharsets.UTF_8);
        }
        return args;
    }
}
