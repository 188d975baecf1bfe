package io.fsindex.testservers;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gives a server binary the shared libraries it links against but the machine lacks, from stand-ins shipped in this
 * module ({@code src/main/native} holds their sources and how they are built), so that the MySQL test server runs on
 * a fresh Debian/Ubuntu machine without root or a package manager. The MySQL 8 binary links against
 * {@code libaio.so.1} and {@code libnuma.so.1}, which such a machine does not have; the stand-ins say that neither
 * kernel AIO nor NUMA is available, and the server runs with {@code innodb_use_native_aio=0}, so it never needs them.
 * Where the system has a library, the system's copy is used and no stand-in is put in its place.
 */
final class StandInLibraries {
    /** The libraries this class has a stand-in for. */
    static final Set<String> AVAILABLE = Set.of("libaio.so.1", "libnuma.so.1");

    private static final Pattern MISSING =
            Pattern.compile("error while loading shared libraries: (\\S+): cannot open shared object file");

    private final Path directory;
    private final Set<String> installed = new TreeSet<>();

    private StandInLibraries(Path directory) {
        this.directory = directory;
    }

    /**
     * Runs {@code binary --version} and, for each library the dynamic loader cannot find, puts its stand-in into
     * {@code directory} and tries again; with {@code all}, puts every stand-in there first, as on a machine that has
     * none of the libraries (how the tests check the stand-ins on any machine).
     *
     * @throws IOException when the binary still does not run, naming the library it lacks or what it printed
     */
    static StandInLibraries provide(Path binary, Path directory, boolean all) throws IOException, InterruptedException {
        Files.createDirectories(directory);
        StandInLibraries libs = new StandInLibraries(directory);
        if (all) {
            for (String name : AVAILABLE) {
                libs.install(name);
            }
        }
        while (true) {
            ProcessBuilder pb = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true);
            libs.applyTo(pb.environment());
            Process p = pb.start();
            String out;
            try (InputStream in = p.getInputStream()) {
                out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(binary + " --version did not finish within 60 s");
            }
            if (p.exitValue() == 0) {
                return libs;
            }
            Matcher m = MISSING.matcher(out);
            if (!m.find()) {
                throw new IOException(binary + " --version failed with exit code " + p.exitValue() + ": " + out.strip());
            }
            String lib = m.group(1);
            if (!AVAILABLE.contains(lib) || libs.installed.contains(lib)) {
                throw new IOException(binary + " needs the system library " + lib + ", which this machine lacks and"
                        + " for which the test servers have no stand-in: " + out.strip());
            }
            libs.install(lib);
        }
    }

    /** The stand-ins in use, by library name; empty when the system has every library. */
    Set<String> installed() {
        return Set.copyOf(installed);
    }

    /** The server options the stand-ins in use require. */
    List<String> serverOptions() {
        List<String> options = new ArrayList<>();
        if (installed.contains("libaio.so.1")) {
            options.add("--innodb-use-native-aio=0");
        }
        return options;
    }

    /** Points the dynamic loader of a process about to start at the stand-ins, before any other directory. */
    void applyTo(Map<String, String> environment) {
        if (installed.isEmpty()) {
            return;
        }
        String existing = environment.get("LD_LIBRARY_PATH");
        environment.put("LD_LIBRARY_PATH",
                directory + (existing == null || existing.isEmpty() ? "" : ":" + existing));
    }

    private void install(String name) throws IOException {
        try (InputStream in = StandInLibraries.class.getResourceAsStream("stubs/" + name)) {
            if (in == null) {
                throw new IOException("stand-in " + name + " is missing from the test-servers jar");
            }
            Files.copy(in, directory.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
        installed.add(name);
    }
}
