package io.fsindex.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A directory and files in it that the kernel refuses to write, for as long as this is open: by their permissions
 * for a user, and for root, whom permissions do not stop, also by the immutable attribute ({@code chattr +i}). Proven
 * so on opening by a write that fails; if no write can be made to fail here, opening fails and says why, rather than
 * let a test pass that proved nothing.
 */
public final class Unwritable implements AutoCloseable {
    private final Path dir;
    private final List<Path> paths = new ArrayList<>();
    private final Map<Path, Set<PosixFilePermission>> permissions = new HashMap<>();
    private boolean immutable;

    private Unwritable(Path dir, Path... files) {
        this.dir = dir;
        paths.addAll(List.of(files));
        paths.add(dir);
    }

    /**
     * Makes {@code dir} and {@code files} unwritable until {@link #close()}.
     *
     * @throws IOException if they cannot be made unwritable; the message says what is missing
     */
    public static Unwritable make(Path dir, Path... files) throws IOException {
        Unwritable u = new Unwritable(dir, files);
        u.lock();
        return u;
    }

    private void lock() throws IOException {
        for (Path p : paths) {
            permissions.put(p, Files.getPosixFilePermissions(p));
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "r-xr-xr-x"
                    : "r--r--r--"));
        }
        if (!canCreateIn(dir)) {
            return;
        }
        immutable = true;
        chattr("+i");
        if (canCreateIn(dir)) {
            close();
            throw new IOException("cannot make " + dir + " unwritable: running as root, this needs a filesystem with"
                    + " the immutable attribute (chattr +i), such as ext4, xfs or btrfs");
        }
    }

    private static boolean canCreateIn(Path dir) {
        Path probe = dir.resolve(".unwritable-probe");
        try {
            Files.createFile(probe);
            Files.delete(probe);
            return true;
        } catch (IOException refused) {
            return false;
        }
    }

    private void chattr(String change) throws IOException {
        List<String> command = new ArrayList<>(List.of("chattr", change));
        paths.forEach(p -> command.add(p.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted running " + String.join(" ", command), e);
        }
    }

    /** Makes everything writable again, as it was. */
    @Override
    public void close() throws IOException {
        if (immutable) {
            immutable = false;
            chattr("-i");
        }
        for (Path p : paths) {
            Files.setPosixFilePermissions(p, permissions.get(p));
        }
    }
}
