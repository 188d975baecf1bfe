package io.fsindex.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Builds deterministic file trees for benchmarks: the same {@link Shape} (seed included) always gives the same paths,
 * kinds and sizes, on any machine. Only modification times differ between two generations.
 *
 * <p>The tree has exactly {@link Shape#entries()} entries below its root (directories and files; the root itself is
 * not counted). The root holds {@link Shape#topLevelDirectories()} directories of about equal size, so the tree
 * splits into disjoint parts that partial scans can cover; every directory holds between
 * {@link Shape#minFiles()} and {@link Shape#maxFiles()} files, and leaf directories sit between
 * {@link Shape#minDepth()} and {@link Shape#maxDepth()} levels below the root (only a tree too small or too large for
 * these bounds bends them). Files are empty unless churn wrote to them.
 *
 * <p>Only the directory skeleton is kept in memory (about one directory per 30 entries); file names are drawn again
 * from a per-directory random stream when needed, so generating or churning a tree of millions of entries fits in a
 * small heap.
 */
public final class TreeGenerator {
    /** Characters names are drawn from; none of them is special to a shell, {@code find -printf}, or COPY. */
    private static final char[] NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_-".toCharArray();
    /** A character names never contain, so a renamed directory cannot collide with a generated sibling. */
    private static final char RENAME_MARK = '~';

    private final Shape shape;
    private final int directories;
    private final int[] parent;
    private final int[] depth;
    /** Position of a directory among its parent's subdirectories (which come first in the parent's name stream). */
    private final int[] ordinal;
    /** Subdirectories of a directory are the contiguous indices {@code firstChild[i] .. firstChild[i]+subdirs[i]-1}. */
    private final int[] firstChild;
    private final int[] subdirs;
    private final int[] files;
    /** {@code fileStart[i]} = files in directories before {@code i}, to map a global file number to its directory. */
    private final long[] fileStart;
    private final long totalFiles;

    /**
     * The parameters of a tree.
     *
     * @param entries             directories and files below the root
     * @param minFiles            fewest files in a directory
     * @param maxFiles            most files in a directory
     * @param minDepth            fewest directory levels from the root to a leaf directory
     * @param maxDepth            most directory levels from the root to a leaf directory
     * @param minNameLength       shortest name
     * @param maxNameLength       longest name
     * @param topLevelDirectories directories directly under the root, of about equal size (the tree's parts)
     * @param seed                the random seed; same shape and seed, same tree
     */
    public record Shape(long entries, int minFiles, int maxFiles, int minDepth, int maxDepth, int minNameLength,
                        int maxNameLength, int topLevelDirectories, long seed) {
        public Shape {
            if (entries < 0 || minFiles < 0 || maxFiles < minFiles || minDepth < 1 || maxDepth < minDepth
                    || minNameLength < 1 || maxNameLength < minNameLength || topLevelDirectories < 1) {
                throw new IllegalArgumentException("inconsistent tree shape: " + this);
            }
            if (entries / (minFiles + 1.0) > Integer.MAX_VALUE / 2.0) {
                throw new IllegalArgumentException("too many directories for " + entries + " entries");
            }
        }

        /** The shape: 6–50 files per directory, 4–6 levels, names of 8–24 characters, four quarters. */
        public static Shape of(long entries, long seed) {
            return new Shape(entries, 6, 50, 4, 6, 8, 24, 4, seed);
        }

        /** This shape with another number of entries. */
        public Shape withEntries(long n) {
            return new Shape(n, minFiles, maxFiles, minDepth, maxDepth, minNameLength, maxNameLength,
                    topLevelDirectories, seed);
        }
    }

    /** What a generation wrote. */
    public record Stats(long directories, long files) {
        /** Directories and files below the root. */
        public long entries() {
            return directories + files;
        }
    }

    /**
     * What a churn step changed.
     *
     * @param renamedEntries entries inside the renamed directory (they all moved with it)
     */
    public record Churn(long modified, long deleted, long added, Path renamedFrom, Path renamedTo,
                        long renamedEntries) {
        @Override
        public String toString() {
            return modified + " files modified, " + deleted + " deleted, " + added + " added, 1 directory with "
                    + renamedEntries + " entries renamed";
        }
    }

    /** Plans the tree of {@code shape}; nothing is written until {@link #generate}. */
    public TreeGenerator(Shape shape) {
        this.shape = Objects.requireNonNull(shape);
        long n = shape.entries();
        double averageFiles = (shape.minFiles() + shape.maxFiles()) / 2.0;
        long minimumDirectories = 1 + (long) shape.topLevelDirectories() * shape.minDepth();
        long d = Math.max(Math.round((n + 1) / (averageFiles + 1)), 1);
        d = Math.min(n + 1, Math.max(d, minimumDirectories));
        this.directories = (int) d;
        this.parent = new int[directories];
        this.depth = new int[directories];
        this.ordinal = new int[directories];
        this.firstChild = new int[directories];
        this.subdirs = new int[directories];
        this.files = new int[directories];
        this.fileStart = new long[directories];
        SplittableRandom rng = new SplittableRandom(mix(shape.seed(), 0x5EED));
        planDirectories(rng);
        this.totalFiles = n - (directories - 1);
        planFiles(rng);
        long sum = 0;
        for (int i = 0; i < directories; i++) {
            fileStart[i] = sum;
            sum += files[i];
        }
    }

    /** The shape this generator builds. */
    public Shape shape() {
        return shape;
    }

    /** Entries below the root: exactly {@link Shape#entries()}. */
    public long entries() {
        return directories - 1 + totalFiles;
    }

    /** Directories below the root. */
    public long directories() {
        return directories - 1;
    }

    /** Files in the tree. */
    public long files() {
        return totalFiles;
    }

    /** The deepest level of a leaf directory below the root (0 for a root without subdirectories). */
    public int deepestDirectory() {
        int max = 0;
        for (int i = 0; i < directories; i++) {
            max = Math.max(max, depth[i]);
        }
        return max;
    }

    /** The directories directly under {@code root}, the disjoint parts that partial scans can cover. */
    public List<Path> topLevelDirectories(Path root) {
        String[] names = names(0, subdirs[0]);
        List<Path> out = new ArrayList<>();
        for (String name : names) {
            out.add(root.resolve(name));
        }
        return out;
    }

    /**
     * Writes the tree under {@code root}, which must not exist or be an empty directory. Top-level directories are
     * written by {@code threads} threads at once; the result does not depend on the thread count.
     */
    public Stats generate(Path root, int threads) throws IOException {
        Files.createDirectories(root);
        try (var existing = Files.list(root)) {
            if (existing.findAny().isPresent()) {
                throw new IOException("not empty, refusing to generate a tree into it: " + root);
            }
        }
        AtomicLong dirCount = new AtomicLong();
        AtomicLong fileCount = new AtomicLong();
        String[] rootNames = names(0, subdirs[0] + files[0]);
        for (int f = 0; f < files[0]; f++) {
            Files.createFile(root.resolve(rootNames[subdirs[0] + f]));
            fileCount.incrementAndGet();
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
        try {
            List<Future<?>> parts = new ArrayList<>();
            for (int c = 0; c < subdirs[0]; c++) {
                int child = firstChild[0] + c;
                Path dir = root.resolve(rootNames[c]);
                parts.add(pool.submit(() -> {
                    writeSubtree(child, dir, dirCount, fileCount);
                    return null;
                }));
            }
            for (Future<?> part : parts) {
                part.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while generating " + root, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof UncheckedIOException u ? u.getCause() : e.getCause();
            throw cause instanceof IOException io ? io : new IOException(cause);
        } finally {
            pool.shutdownNow();
        }
        return new Stats(dirCount.get(), fileCount.get());
    }

    private void writeSubtree(int dir, Path path, AtomicLong dirCount, AtomicLong fileCount) {
        try {
            Files.createDirectory(path);
            dirCount.incrementAndGet();
            String[] names = names(dir, subdirs[dir] + files[dir]);
            for (int f = 0; f < files[dir]; f++) {
                Files.createFile(path.resolve(names[subdirs[dir] + f]));
            }
            fileCount.addAndGet(files[dir]);
            for (int c = 0; c < subdirs[dir]; c++) {
                writeSubtree(firstChild[dir] + c, path.resolve(names[c]), dirCount, fileCount);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes one flat directory holding {@code count} empty files with names drawn from {@code shape}'s name lengths
     * and seed. Names are checked against the directory itself, not a set in memory, so a million files need no heap.
     */
    public static Stats generateFlat(Path dir, long count, Shape shape) throws IOException {
        Files.createDirectories(dir);
        SplittableRandom rng = new SplittableRandom(mix(shape.seed(), 0xF1A7));
        long written = 0;
        while (written < count) {
            try {
                Files.createFile(dir.resolve(randomName(rng, shape)));
                written++;
            } catch (FileAlreadyExistsException drawAgain) {
                // the next draw of the same stream decides, so the result stays deterministic
            }
        }
        return new Stats(0, written);
    }

    /**
     * Changes the tree under {@code root} (written by {@link #generate}) as users do between two scans: 1 % of the
     * files get new content (size and modification time change), 0.1 % are deleted, 0.1 % new files appear, and one
     * directory at least two levels down is renamed, which moves its whole subtree. Each {@code round} draws other
     * files; changes that meet a file an earlier round already removed or moved are skipped, so rounds can repeat.
     */
    public Churn churn(Path root, int round) throws IOException {
        SplittableRandom rng = new SplittableRandom(mix(shape.seed(), 0xC4C4L + round));
        long modifyCount = Math.max(1, Math.round(totalFiles * 0.01));
        long deleteCount = Math.max(1, Math.round(totalFiles * 0.001));
        long addCount = Math.max(1, Math.round(totalFiles * 0.001));
        // Distinct file numbers (Floyd's sampling), the first ones modified, the rest deleted.
        long picked = Math.min(totalFiles, modifyCount + deleteCount);
        List<Long> chosen = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        for (long j = totalFiles - picked; j < totalFiles; j++) {
            long t = rng.nextLong(j + 1);
            long pick = seen.add(t) ? t : j;
            if (pick == j) {
                seen.add(j);
            }
            chosen.add(pick);
        }
        Map<Integer, List<long[]>> byDirectory = new TreeMap<>(); // directory -> {local file number, 1=modify}
        for (int i = 0; i < chosen.size(); i++) {
            long global = chosen.get(i);
            int dir = directoryOfFile(global);
            byDirectory.computeIfAbsent(dir, k -> new ArrayList<>())
                    .add(new long[]{global - fileStart[dir], i < modifyCount ? 1 : 0});
        }
        long modified = 0;
        long deleted = 0;
        for (Map.Entry<Integer, List<long[]>> e : byDirectory.entrySet()) {
            int dir = e.getKey();
            Path path = path(root, dir);
            String[] names = names(dir, subdirs[dir] + files[dir]);
            for (long[] op : e.getValue()) {
                Path file = path.resolve(names[subdirs[dir] + (int) op[0]]);
                try {
                    if (op[1] == 1) {
                        byte[] bytes = new byte[1 + rng.nextInt(16)];
                        java.util.Arrays.fill(bytes, (byte) 'x');
                        Files.write(file, bytes, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
                        modified++;
                    } else if (Files.deleteIfExists(file)) {
                        deleted++;
                    }
                } catch (NoSuchFileException goneInAnEarlierRound) {
                    // skipped, as documented
                }
            }
        }
        long added = 0;
        Map<Integer, Integer> additions = new TreeMap<>();
        for (long i = 0; i < addCount; i++) {
            additions.merge(rng.nextInt(directories), 1, Integer::sum);
        }
        for (Map.Entry<Integer, Integer> e : additions.entrySet()) {
            int dir = e.getKey();
            Path path = path(root, dir);
            if (!Files.isDirectory(path)) {
                continue;
            }
            NameStream stream = new NameStream(dir);
            for (int i = 0; i < subdirs[dir] + files[dir]; i++) {
                stream.next();
            }
            for (int i = 0; i < e.getValue(); ) {
                try {
                    Files.createFile(path.resolve(stream.next()));
                    added++;
                    i++;
                } catch (FileAlreadyExistsException addedInAnEarlierRound) {
                    // draw the next name of the stream
                }
            }
        }
        int renamed = pickDirectoryToRename(root, rng);
        Path from = path(root, renamed);
        Path to = from.resolveSibling(from.getFileName() + String.valueOf(RENAME_MARK) + round);
        Files.move(from, to);
        long moved;
        try (var inside = Files.walk(to)) {
            moved = inside.count() - 1;
        }
        return new Churn(modified, deleted, added, from, to, moved);
    }

    private int pickDirectoryToRename(Path root, SplittableRandom rng) throws IOException {
        int minDepth = deepestDirectory() >= 2 ? 2 : 1;
        for (int attempt = 0; attempt < 10_000; attempt++) {
            int candidate = 1 + rng.nextInt(Math.max(1, directories - 1));
            if (candidate < directories && depth[candidate] >= minDepth && Files.isDirectory(path(root, candidate))) {
                return candidate;
            }
        }
        throw new IOException("no directory left to rename under " + root);
    }

    private int directoryOfFile(long global) {
        int lo = 0;
        int hi = directories - 1;
        while (lo < hi) { // last directory whose fileStart <= global and that holds files
            int mid = (lo + hi + 1) >>> 1;
            if (fileStart[mid] <= global) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        while (files[lo] == 0 || global >= fileStart[lo] + files[lo]) {
            lo--; // directories without files share a fileStart; step back to the one holding the file
        }
        return lo;
    }

    /** The path of directory {@code dir} under {@code root} as generated (before any rename). */
    Path path(Path root, int dir) {
        if (dir == 0) {
            return root;
        }
        int p = parent[dir];
        return path(root, p).resolve(names(p, subdirs[p])[ordinal[dir]]);
    }

    /** The first {@code count} names of directory {@code dir}: its subdirectories' names, then its files'. */
    private String[] names(int dir, int count) {
        NameStream stream = new NameStream(dir);
        String[] out = new String[count];
        for (int i = 0; i < count; i++) {
            out[i] = stream.next();
        }
        return out;
    }

    /** The names of one directory's children, drawn from a stream of its own and never repeated. */
    private final class NameStream {
        private final SplittableRandom rng;
        private final Set<String> used = new HashSet<>();

        NameStream(int dir) {
            this.rng = new SplittableRandom(mix(shape.seed(), 0x4A4E0000L + dir));
        }

        String next() {
            while (true) {
                String name = randomName(rng, shape);
                if (used.add(name)) {
                    return name;
                }
            }
        }
    }

    private static String randomName(SplittableRandom rng, Shape shape) {
        int length = shape.minNameLength() + rng.nextInt(shape.maxNameLength() - shape.minNameLength() + 1);
        byte[] chars = new byte[length];
        for (int i = 0; i < length; i++) {
            chars[i] = (byte) NAME_CHARS[rng.nextInt(NAME_CHARS.length)];
        }
        if (chars[0] == '-') {
            chars[0] = '_'; // a leading dash would read as an option to command-line tools
        }
        return new String(chars, StandardCharsets.US_ASCII);
    }

    /**
     * Lays out the directory skeleton breadth-first, so each directory's subdirectories get contiguous indices: every
     * directory receives a budget of directories for its subtree and splits it among its subdirectories, keeping
     * enough in each for a chain down to {@code minDepth} and never more than fits above {@code maxDepth}.
     */
    private void planDirectories(SplittableRandom rng) {
        double branching = branching();
        int maxBranching = (int) Math.ceil(4 * branching) + 4;
        long[] budget = new long[directories];
        budget[0] = directories;
        int next = 1;
        for (int i = 0; i < directories; i++) { // indices are assigned in the order they are visited: breadth-first
            long rest = budget[i] - 1;
            firstChild[i] = next;
            if (rest == 0) {
                continue;
            }
            int d = depth[i];
            long perChildMinimum = 1 + need(d + 1);
            long perChildCapacity = capacity(d + 1, maxBranching);
            long kMax = Math.max(1, rest / perChildMinimum);
            long kMin = (rest + perChildCapacity - 1) / perChildCapacity;
            long target = d == 0 ? shape.topLevelDirectories()
                    : Math.max(1, Math.round(branching * (0.5 + rng.nextDouble())));
            int k = (int) Math.max(kMin, Math.min(kMax, target));
            long[] shares = split(rest, k, Math.min(perChildMinimum, rest / k), perChildCapacity, d == 0, rng);
            subdirs[i] = k;
            for (int c = 0; c < k; c++) {
                int child = next++;
                parent[child] = i;
                depth[child] = d + 1;
                ordinal[child] = c;
                budget[child] = shares[c];
            }
        }
    }

    /** Splits {@code total} among {@code k} parts, each in [min, max]; evenly for the top level, else at random. */
    private static long[] split(long total, int k, long min, long max, boolean even, SplittableRandom rng) {
        long[] shares = new long[k];
        double[] weights = new double[k];
        double weightSum = 0;
        for (int c = 0; c < k; c++) {
            weights[c] = even ? 1 : 0.5 + rng.nextDouble();
            weightSum += weights[c];
        }
        long remainder = total - k * min;
        long given = 0;
        for (int c = 0; c < k; c++) {
            shares[c] = min + Math.min(max - min, (long) Math.floor(remainder * weights[c] / weightSum));
            given += shares[c];
        }
        for (int c = 0; given < total; c = (c + 1) % k) { // hand out what rounding and capping left, one each
            if (shares[c] < max) {
                shares[c]++;
                given++;
            }
        }
        return shares;
    }

    /** Directories needed below one at {@code depth} for a chain to reach {@code minDepth}. */
    private long need(int d) {
        return Math.max(0, shape.minDepth() - d);
    }

    /** The most directories a subtree rooted at {@code depth} can hold without going below {@code maxDepth}. */
    private long capacity(int d, int maxBranching) {
        long total = 0;
        long level = 1;
        for (int i = d; i <= shape.maxDepth(); i++) {
            total += level;
            if (total > Integer.MAX_VALUE || level > Integer.MAX_VALUE / maxBranching) {
                return Integer.MAX_VALUE;
            }
            level *= maxBranching;
        }
        return total;
    }

    /**
     * The branching factor that fills {@code directories} with leaves around the middle depth: solves
     * {@code 1 + top * (1 + b + ... + b^(mid-1)) = directories} by bisection.
     */
    private double branching() {
        int mid = (shape.minDepth() + shape.maxDepth() + 1) / 2;
        double lo = 1;
        double hi = 1000;
        for (int i = 0; i < 100; i++) {
            double b = (lo + hi) / 2;
            double sum = 0;
            double level = 1;
            for (int l = 0; l < mid; l++) {
                sum += level;
                level *= b;
            }
            if (1 + shape.topLevelDirectories() * sum < directories) {
                lo = b;
            } else {
                hi = b;
            }
        }
        return lo;
    }

    /** Draws each directory's file count in [minFiles, maxFiles], then nudges counts until they sum to the target. */
    private void planFiles(SplittableRandom rng) {
        int lo = shape.minFiles();
        int hi = shape.maxFiles();
        if (totalFiles < (long) lo * directories) {
            lo = 0; // a tree too small for the bounds
        }
        if (totalFiles > (long) hi * directories) {
            hi = (int) ((totalFiles + directories - 1) / directories); // a tree too large for them
        }
        long sum = 0;
        for (int i = 0; i < directories; i++) {
            files[i] = lo + rng.nextInt(hi - lo + 1);
            sum += files[i];
        }
        while (sum != totalFiles) {
            int i = rng.nextInt(directories);
            if (sum < totalFiles && files[i] < hi) {
                files[i]++;
                sum++;
            } else if (sum > totalFiles && files[i] > lo) {
                files[i]--;
                sum--;
            }
        }
    }

    /** A 64-bit mix (SplitMix64's finaliser) of a seed and a stream number, so streams do not overlap. */
    static long mix(long seed, long stream) {
        long z = seed + 0x9E3779B97F4A7C15L * (stream + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
