package io.fsindex.examples;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * Copies the SQLite driver's native library for this machine out of the jar into a directory, once, at build time.
 * The {@code fsindex} launcher script points the driver at that copy ({@code -Dorg.sqlite.lib.path}), so a JVM it
 * starts loads the library in place instead of asking the operating system its name in a child process and copying
 * a megabyte to the temporary directory, as the driver does on every start otherwise. If the copy cannot be loaded
 * (another machine), the driver falls back to its own extraction.
 * <pre>
 * java -cp fsindex.jar io.fsindex.examples.NativeLibraryCopy DIR
 * </pre>
 */
final class NativeLibraryCopy {
    private NativeLibraryCopy() {
    }

    public static void main(String[] args) throws IOException {
        String name = LibraryLoaderUtil.getNativeLibName();
        String resource = LibraryLoaderUtil.getNativeLibResourcePath() + "/" + name;
        Path dir = Files.createDirectories(Path.of(args[0]));
        try (InputStream in = LibraryLoaderUtil.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("the SQLite driver has no native library " + resource + " for this machine");
            }
            // another name first, then moved: a build cut short leaves no partial library the script would use
            Path part = dir.resolve(name + ".part");
            Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
            Files.move(part, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
    }
}
