package io.fsindex.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Builds a random tree and changes it the way a busy user would, every choice drawn from one seeded {@link Random}:
 * creates files and whole directories, deletes them, renames files, moves directories, rewrites files with another
 * size, and turns files into directories and back. It only touches entries below its base directories, never a base
 * itself, so a scan rooted at a base never loses its root. The same seed on the same tree gives the same changes.
 */
public final class SeededChurn {
    private static final String[] NAME_STEMS = {"f", "doc", "photo ", "notes.txt", "café", "data-", "Ω"};

    private final Path root;
    private final List<String> bases;
    private final Random random;
    private int counter;
    private int changes;

    public SeededChurn(Path root, List<String> bases, Random random) {
        this.root = root;
        this.bases = List.copyOf(bases);
        this.random = random;
    }

    /**
     * Creates about {@code entries} entries spread over the bases (which are created if missing), in directories up
     * to four levels deep.
     */
    public void populate(int entries) {
        for (String base : bases) {
            Trees.create(root.resolve(base), "./");
        }
        int made = 0;
        while (made < entries) {
            Path base = base();
            made += createDirectory(pickDirectory(base), 1 + random.nextInt(4), 2 + random.nextInt(8));
        }
    }

    /** The number of changes made so far. */
    public int changes() {
        return changes;
    }

    /** Makes {@code n} random changes. */
    public void change(int n) {
        for (int i = 0; i < n; i++) {
            change();
        }
    }

    /** Makes one random change. */
    public void change() {
        Path base = base();
        try {
            switch (random.nextInt(8)) {
                case 0 -> write(pickDirectory(base).resolve(name()));
                case 1 -> createDirectory(pickDirectory(base), 1 + random.nextInt(2), 1 + random.nextInt(4));
                case 2 -> {
                    Path file = pickFile(base);
                    if (file != null) {
                        Files.delete(file);
                    }
                }
                case 3 -> {
                    Path dir = pickDirectoryBelow(base);
                    if (dir != null) {
                        Trees.delete(dir);
                    }
                }
                case 4 -> {
                    Path file = pickFile(base);
                    if (file != null) {
                        Files.move(file, file.resolveSibling(name()));
                    }
                }
                case 5 -> {
                    Path dir = pickDirectoryBelow(base);
                    Path target = pickDirectory(base);
                    if (dir != null && !target.startsWith(dir)) {
                        Files.move(dir, target.resolve(name()));
                    }
                }
                case 6 -> {
                    Path file = pickFile(base);
                    if (file != null) {
                        write(file);
                    }
                }
                default -> {
                    Path file = pickFile(base);
                    if (file != null) {
                        Files.delete(file);
                        Trees.create(file, "inside");
                    } else {
                        Path dir = pickDirectoryBelow(base);
                        if (dir != null) {
                            Trees.delete(dir);
                            write(dir);
                        }
                    }
                }
            }
            changes++;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path base() {
        return root.resolve(bases.get(random.nextInt(bases.size())));
    }

    private String name() {
        return NAME_STEMS[random.nextInt(NAME_STEMS.length)] + (counter++);
    }

    private void write(Path file) throws IOException {
        int size = random.nextInt(200);
        if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
            return;                             // the name is a directory's: no change this time
        }
        Files.writeString(file, "x".repeat(size));
    }

    /** Creates a directory with {@code files} files and, down to {@code depth} levels, subdirectories; returns entries made. */
    private int createDirectory(Path parent, int depth, int files) {
        try {
            Path dir = parent.resolve(name());
            if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                return 0;                       // the name is taken (by a file, say): no change this time
            }
            Files.createDirectory(dir);
            int made = 1;
            for (int i = 0; i < files; i++) {
                write(dir.resolve(name()));
                made++;
            }
            if (depth > 1) {
                for (int i = random.nextInt(3); i > 0; i--) {
                    made += createDirectory(dir, depth - 1, files);
                }
            }
            return made;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path pickDirectory(Path base) {
        List<Path> dirs = entries(base, true);
        dirs.add(base);
        return dirs.get(random.nextInt(dirs.size()));
    }

    private Path pickDirectoryBelow(Path base) {
        List<Path> dirs = entries(base, true);
        dirs.removeIf(d -> bases.stream().anyMatch(b -> root.resolve(b).startsWith(d)));
        return dirs.isEmpty() ? null : dirs.get(random.nextInt(dirs.size()));
    }

    private Path pickFile(Path base) {
        List<Path> files = entries(base, false);
        return files.isEmpty() ? null : files.get(random.nextInt(files.size()));
    }

    /** The directories (or the files) strictly below {@code base}, in a stable order. */
    private static List<Path> entries(Path base, boolean directories) {
        try (Stream<Path> s = Files.walk(base)) {
            List<Path> out = new ArrayList<>(s.filter(p -> !p.equals(base))
                    .filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) == directories).sorted().toList());
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
