package io.fsindex.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.core.FsIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.context.ConfigurableApplicationContext;

/** Starts the sample application as its users would, on a fresh SQLite index, and checks what it did. */
class SampleApplicationTest {
    @TempDir
    Path dir;

    @Test
    void startsIndexesTheRootAndReportsHealthy() throws Exception {
        Path root = Files.createDirectories(dir.resolve("media"));
        Files.writeString(root.resolve("a.jpg"), "not really a picture");
        try (ConfigurableApplicationContext context = new org.springframework.boot.SpringApplication(
                SampleApplication.class).run("--sample.root=" + root,
                "--fsindex.url=jdbc:sqlite:" + dir.resolve("index.db"))) {
            FsIndex index = context.getBean(FsIndex.class);
            assertThat(index.lookup(root.resolve("a.jpg"))).isPresent();
            assertThat(context.getBean("fsindexHealthIndicator", HealthIndicator.class).health().getStatus())
                    .isEqualTo(Status.UP);
        }
        assertThat(dir.resolve("index.db")).exists();
    }
}
