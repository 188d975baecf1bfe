package io.fsindex.examples;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** What {@code fsindex --version} prints: the version this build was made from, and the Java it runs on. */
final class CliVersion implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        return new String[] {"fsindex " + version(),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
    }

    /**
     * The build's version, written into {@code version.properties} by Maven's resource filtering; else the jar's
     * Implementation-Version; else "unknown" (classes compiled outside the build).
     */
    static String version() {
        try (InputStream in = CliVersion.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String version = p.getProperty("version");
                if (version != null && !version.startsWith("${")) {
                    return version;
                }
            }
        } catch (IOException e) {
            // fall through to the manifest
        }
        String manifest = CliVersion.class.getPackage().getImplementationVersion();
        return manifest != null ? manifest : "unknown";
    }
}
