package io.fsindex.testkit;


import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Changes a tree the way a busy user would while scans run: creates and deletes whole directories, changes file
 * sizes and turns files into directories and back. It only ever touches entries below the given base directories,
 * never the bases themselves, so a scan rooted at a base never loses its root.
 */
public final class TreeChurn {
    private final Path root;
    private final List<String> bases;
    private final List<Deque<Path>> created = new ArrayList<>();
    private int step;

    public TreeChurn(Path root, List<String> bases) {
        this.root = root;
        this.bases = bases;
        bases.forEach(b -> created.add(new ArrayDeque<>()));
    }

    /** The number of changes made so far. */
    public int steps() {
        return step;
    }

    /** Makes one change; successive calls cycle through the bases and the kinds of change. */
    public void step() {
        int k = step++;
        int which = k % bases.size();
        Path base = root.resolve(bases.get(which));
        try {
            switch ((k / bases.size()) % 4) {
                case 0 -> {
                    Path dir = base.resolve("d" + k);
                    Trees.create(dir, "f1", "f2", "sub/", "sub/g");
                    created.get(which).addLast(dir);
                }
                case 1 -> {
                    Deque<Path> mine = created.get(which);
                    if (mine.size() > 1) {
                        Trees.delete(mine.removeFirst());
                    }
                }
                case 2 -> Files.writeString(base.resolve("grows.txt"), "x".repeat(k % 97));
                default -> {
                    Path flip = base.resolve("flip");
                    boolean wasDirectory = Files.isDirectory(flip);
                    Trees.delete(flip);
                    if (wasDirectory) {
                        Files.writeString(flip, "now a file");
                    } else {
                        Trees.create(flip, "inside");
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
