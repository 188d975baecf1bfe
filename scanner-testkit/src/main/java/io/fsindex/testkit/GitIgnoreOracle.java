package io.fsindex.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The independent oracle for exclude patterns: git itself ({@code git check-ignore --no-index}), asked about every
 * path of a tree on disk with the patterns as the repository's {@code info/exclude}. Git's own answers are combined
 * the way a walk applies them: a path is left out if git ignores it or any directory above it.
 */
public final class GitIgnoreOracle {
    private GitIgnoreOracle() {
    }

    /**
     * The relative paths of {@code tree} (as {@link Trees#onDisk} gives them) that git does not exclude.
     *
     * @param tree       the tree on disk
     * @param patterns   the exclude patterns
     * @param ignoreCase git's {@code core.ignoreCase}
     * @param gitDir     an empty directory for git's own files (outside the tree)
     * @return the kept paths with what {@link Trees#onDisk} says of them
     */
    public static Map<String, String> kept(Path tree, List<String> patterns, boolean ignoreCase, Path gitDir) {
        Map<String, String> all = Trees.onDisk(tree);
        Set<String> ignored = ignored(tree, all.keySet(), patterns, ignoreCase, gitDir);
        Map<String, String> kept = new TreeMap<>();
        for (Map.Entry<String, String> e : all.entrySet()) {
            boolean out = false;
            for (String p = e.getKey(); p != null && !out; p = parent(p)) {
                out = ignored.contains(p);
            }
            if (!out) {
                kept.put(e.getKey(), e.getValue());
            }
        }
        return kept;
    }

    /**
     * The paths among {@code paths} (relative, {@code /}-separated; they need not exist any more) that git leaves
     * out: git ignores the path or a directory above it. For paths gone from disk git cannot tell a directory from a
     * file, so this is exact only for patterns without a trailing {@code /}.
     */
    public static Set<String> excluded(Path tree, Set<String> paths, List<String> patterns, boolean ignoreCase,
                                       Path gitDir) {
        Set<String> asked = new TreeSet<>();
        for (String path : paths) {
            for (String p = path; p != null; p = parent(p)) {
                asked.add(p);
            }
        }
        Set<String> ignored = ignored(tree, asked, patterns, ignoreCase, gitDir);
        Set<String> out = new TreeSet<>();
        for (String path : paths) {
            for (String p = path; p != null; p = parent(p)) {
                if (ignored.contains(p)) {
                    out.add(path);
                    break;
                }
            }
        }
        return out;
    }

    /** The paths among {@code paths} that git's last matching pattern ignores (not counting their parents). */
    public static Set<String> ignored(Path tree, Set<String> paths, List<String> patterns, boolean ignoreCase,
                                      Path gitDir) {
        try {
            if (!Files.exists(gitDir.resolve("HEAD"))) {
                run(List.of("git", "init", "-q", "--bare", gitDir.toString()), null);
            }
            Files.createDirectories(gitDir.resolve("info"));
            Files.writeString(gitDir.resolve("info/exclude"), String.join("\n", patterns) + "\n");
            StringBuilder in = new StringBuilder();
            for (String p : paths) {
                in.append(p).append('\0');
            }
            String out = run(List.of("git", "--git-dir=" + gitDir, "--work-tree=" + tree, "-c",
                    "core.ignoreCase=" + ignoreCase, "-c", "core.bare=false", "check-ignore", "--no-index", "--stdin",
                    "-z", "-v", "-n"), in.toString());
            // Records of four NUL-terminated fields: source, line number, pattern, path; the source is empty for a
            // path no pattern matches, and a negated pattern (leading !) means the path is not ignored.
            String[] f = out.split("\0", -1);
            Set<String> ignored = new TreeSet<>();
            for (int i = 0; i + 3 < f.length; i += 4) {
                if (!f[0 + i].isEmpty() && !f[i + 2].startsWith("!")) {
                    ignored.add(f[i + 3]);
                }
            }
            return ignored;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? null : path.substring(0, slash);
    }

    private static String run(List<String> command, String stdin) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread reader = new Thread(() -> copy(p.getInputStream(), out));
        Thread errors = new Thread(() -> copy(p.getErrorStream(), err));
        reader.start();
        errors.start();
        try (OutputStream w = p.getOutputStream()) {
            if (stdin != null) {
                w.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        }
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("git did not answer within 60 s: " + command);
            }
            reader.join();
            errors.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for git", e);
        }
        // check-ignore exits with 1 when it ignores nothing
        if (p.exitValue() > 1) {
            throw new IOException("git failed (" + p.exitValue() + "): " + command + ": "
                    + err.toString(StandardCharsets.UTF_8));
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        try (in) {
            in.transferTo(out);
        } catch (IOException ignored) {
            // the exit code tells
        }
    }
}
