package io.fsindex.testkit;

import io.fsindex.testkit.ScanPropertyConformanceTest.Change;
import io.fsindex.testkit.ScanPropertyConformanceTest.Mutate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Applies the property suite's changes to a tree on disk: each change picks its target, place and name from its
 * numbers among what is there now, within a few levels and a few names that collide, so that changes reuse names.
 */
final class PropertyTreeChanges {
    /** Few names, two differing only in case, so that changes collide and reuse names. */
    private static final List<String> NAMES = List.of("a", "A", "b", "c");
    private static final int MAX_DEPTH = 3;

    private final Path root;

    PropertyTreeChanges(Path root) {
        this.root = root;
    }

    /** Applies {@code m}; what it did, or null if there was nothing to do it to. */
    String apply(Mutate m) throws IOException {
        switch (m.change()) {
            case ADD_FILE, ADD_DIR -> {
                Path parent = pick(directories().stream().filter(d -> depth(d) < MAX_DEPTH).toList(), m.place());
                Path added = parent == null ? null : freeName(parent, m.name());
                if (added == null) {
                    return null;
                }
                if (m.change() == Change.ADD_DIR) {
                    Files.createDirectory(added);
                } else {
                    write(added, m.size());
                }
                return rel(added);
            }
            case DELETE -> {
                Path target = pick(entries(), m.target());
                if (target == null) {
                    return null;
                }
                Trees.delete(target);
                return rel(target);
            }
            case MODIFY_FILE -> {
                Path target = pick(files(), m.target());
                if (target == null) {
                    return null;
                }
                int size = m.size() == Files.size(target) ? m.size() + 1 : m.size();
                write(target, size);
                return rel(target) + " to " + size + " bytes";
            }
            case DIR_TO_FILE -> {
                Path target = pick(directories().stream().filter(d -> !d.equals(root)).toList(), m.target());
                if (target == null) {
                    return null;
                }
                Trees.delete(target);
                write(target, m.size());
                return rel(target);
            }
            case FILE_TO_DIR -> {
                Path target = pick(files(), m.target());
                if (target == null) {
                    return null;
                }
                Files.delete(target);
                Files.createDirectory(target);
                if (depth(target) < MAX_DEPTH) {
                    write(target.resolve(NAMES.get(m.name() % NAMES.size())), m.size());
                }
                return rel(target);
            }
            case RENAME -> {
                Path source = pick(entries(), m.target());
                if (source == null) {
                    return null;
                }
                int height = height(source);
                List<Path> places = directories().stream()
                        .filter(d -> !d.startsWith(source) && depth(d) + 1 + height <= MAX_DEPTH).toList();
                Path parent = pick(places, m.place());
                Path destination = parent == null ? null : freeName(parent, m.name());
                if (destination == null) {
                    return null;
                }
                Files.move(source, destination);
                return rel(source) + " to " + rel(destination);
            }
            default -> throw new IllegalStateException(m.change().name());
        }
    }

    private Path freeName(Path parent, int pick) {
        for (int i = 0; i < NAMES.size(); i++) {
            Path candidate = parent.resolve(NAMES.get((pick + i) % NAMES.size()));
            if (!Files.exists(candidate, LinkOption.NOFOLLOW_LINKS)) {
                return candidate;
            }
        }
        return null;
    }

    private static <T> T pick(List<T> candidates, int pick) {
        return candidates.isEmpty() ? null : candidates.get(pick % candidates.size());
    }

    /** Every entry under the root, in a stable order. */
    List<Path> entries() {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> !p.equals(root)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<Path> directories() {
        List<Path> dirs = new ArrayList<>();
        dirs.add(root);
        entries().stream().filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)).forEach(dirs::add);
        return dirs;
    }

    private List<Path> files() {
        return entries().stream().filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).toList();
    }

    private int depth(Path p) {
        return root.relativize(p).toString().isEmpty() ? 0 : root.relativize(p).getNameCount();
    }

    private int height(Path p) {
        try (Stream<Path> s = Files.walk(p)) {
            return s.mapToInt(d -> p.relativize(d).toString().isEmpty() ? 0 : p.relativize(d).getNameCount())
                    .max().orElse(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String rel(Path p) {
        return "/" + root.relativize(p);
    }

    private static void write(Path file, int size) throws IOException {
        Files.writeString(file, "x".repeat(size));
    }
}
