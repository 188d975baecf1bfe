package io.fsindex.benchmarks;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A benchmark run's scratch directory: created fresh under the work directory (the system temporary directory unless
 * given), holding the generated trees and the databases, and deleted with everything in it at the end.
 */
final class Scratch implements AutoCloseable {
    private final Path dir;
    private final boolean keep;

    private Scratch(Path dir, boolean keep) {
        this.dir = dir;
        this.keep = keep;
    }

    /** Creates {@code WORK/PREFIX…}; {@code keep} leaves it in place at {@link #close}. */
    static Scratch create(Path workDir, String prefix, boolean keep) throws IOException {
        Path base = workDir != null ? workDir : Path.of(System.getProperty("java.io.tmpdir"));
        Files.createDirectories(base);
        return new Scratch(Files.createTempDirectory(base.toAbsolutePath(), prefix), keep);
    }

    /** The directory itself. */
    Path dir() {
        return dir;
    }

    /** A path inside the directory. */
    Path resolve(String name) {
        return dir.resolve(name);
    }

    /**
     * Generates a tree of {@code entries} entries of the default shape from {@code seed} in the new directory
     * {@code name}, and returns its real path (scans resolve their root to it) with the generator's figures.
     */
    GeneratedTree generateTree(String name, long entries, long seed) throws IOException {
        Path root = Files.createDirectories(dir.resolve(name)).toRealPath();
        TreeGenerator generator = new TreeGenerator(TreeGenerator.Shape.of(entries, seed));
        return new GeneratedTree(root, generator, generator.generate(root, 2));
    }

    /** A tree {@link #generateTree} made: where it is, what made it, and what it holds. */
    record GeneratedTree(Path root, TreeGenerator generator, TreeGenerator.Stats stats) {
    }

    /** Deletes the directory and everything in it, unless it is to be kept. */
    @Override
    public void close() throws IOException {
        if (!keep) {
            deleteTree(dir);
        }
    }

    /** Deletes {@code root} and everything below it; nothing if it does not exist. */
    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
