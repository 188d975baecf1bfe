package io.fsindex.testservers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A server leaves the shared temporary directory alone while it initialises and runs: a starting server deletes
 * every {@code #sql} file in its temporary directory, so one that used the shared /tmp would delete the temporary
 * tables of another test JVM's server initialising beside it (which then fails).
 */
class InnoDbServerSharedTmpTest {
    @ParameterizedTest
    @EnumSource(InnoDbServer.Engine.class)
    void aServerKeepsOutOfTheSharedTemporaryDirectory(InnoDbServer.Engine engine) throws Exception {
        Path sharedTmp = Path.of(System.getProperty("java.io.tmpdir"));
        Path othersTable = Files.createTempFile(sharedTmp, "#sql-another-server-", ".ibd");
        // short: the server's Unix socket lives in its home
        Path home = Files.createTempDirectory("fsindex-tmp-");
        try (InnoDbServer server = InnoDbServer.install(engine, home, List.of())) {
            server.start();
            assertThat(othersTable).exists();
        } finally {
            Files.deleteIfExists(othersTable);
            new ProcessBuilder("rm", "-rf", home.toString()).start().waitFor();
        }
    }
}
