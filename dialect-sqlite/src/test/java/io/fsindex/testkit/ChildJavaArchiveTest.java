package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The test kit's children start from its class-data archive on this JDK (it lives in this package to reach the
 * package-private {@link ChildJava}; the SQLite dialect is what it needs on the class path): were the archive
 * missing or unusable, every campaign would still pass, only slower, so this is the test that notices.
 */
class ChildJavaArchiveTest {
    @TempDir
    Path tmp;

    @Test
    void aChildThatRequiresTheArchiveOpensAnIndexAndScans() throws Exception {
        Properties settings = new TestDatabase("jdbc:sqlite:" + tmp.resolve("index.db"), null, null)
                .properties(TestDatabase.freshPrefix());
        Path file = ChildJava.writeSettings(settings, tmp.resolve("child.properties"));
        // -Xshare:on: a JVM that cannot map the archive, or finds it does not match the class path, refuses to start.
        List<String> command = ChildJava.command(settings, List.of("-Xshare:on"), ChildClassTraining.class.getName(),
                List.of(file.toString(), tmp.resolve("tree").toString()));
        assertThat(command).as("the child's command line").anyMatch(o -> o.startsWith("-XX:SharedArchiveFile="));

        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor()).as("the child's exit code; it printed:%n%s", output).isZero();
    }
}
