package io.fsindex.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.core.FsIndex;
import io.fsindex.testservers.JdbcServer;
import io.fsindex.testservers.PostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The starter in a real application context on a real PostgreSQL 16 server (from {@link PostgresServer}: Docker or
 * Maven artifacts), through fsindex.url and through the DataSource Spring Boot configures from spring.datasource.*.
 */
class FsIndexPostgresTest {
    private static JdbcServer server;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(FsIndexAutoConfiguration.class,
                    FsIndexHealthAutoConfiguration.class));

    @TempDir
    Path dir;

    @BeforeAll
    static void startServer() throws Exception {
        server = PostgresServer.shared();
    }

    @Test
    void opensFromFsindexUrlAndReportsHealth() throws Exception {
        Path tree = tree();
        runner.withPropertyValues(settings("fsindex", "url_"))
                .run(context -> {
                    assertThat(context).doesNotHaveBean(DataSource.class);
                    FsIndex index = context.getBean(FsIndex.class);
                    assertThat(index.databaseName()).isEqualTo("PostgreSQL");
                    assertThat(index.scan(tree).added()).isPositive();
                    Health health = context.getBean("fsindexHealthIndicator", HealthIndicator.class).health();
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat((String) health.getDetails().get("database")).startsWith("PostgreSQL 16");
                    assertThat(health.getDetails()).containsKey("schemaVersion").containsEntry("runningScans", 0L);
                });
    }

    @Test
    void usesTheDataSourceSpringBootConfigures() throws Exception {
        Path tree = tree();
        runner.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
                .withPropertyValues(settings("spring.datasource", "ds_"))
                .run(context -> {
                    assertThat(context).hasSingleBean(DataSource.class);
                    FsIndex index = context.getBean(FsIndex.class);
                    assertThat(index.scan(tree).added()).isPositive();
                    assertThat(index.lookup(tree.resolve("a.txt"))).isPresent();
                    assertThat(context.getBean("fsindexHealthIndicator", HealthIndicator.class).health().getStatus())
                            .isEqualTo(Status.UP);
                });
    }

    /** The server's URL and credentials under {@code prefix}, and a table prefix of this test's own. */
    private static String[] settings(String prefix, String tablePrefix) {
        List<String> s = new ArrayList<>();
        s.add(prefix + ".url=" + server.url());
        if (server.user() != null) {
            s.add(prefix + (prefix.equals("fsindex") ? ".user=" : ".username=") + server.user());
            s.add(prefix + ".password=" + server.password());
        }
        s.add("fsindex.tablePrefix=spring_" + tablePrefix + Long.toHexString(System.nanoTime()) + "_");
        return s.toArray(String[]::new);
    }

    private Path tree() throws Exception {
        Path tree = Files.createDirectories(dir.resolve("tree"));
        Files.writeString(tree.resolve("a.txt"), "a");
        return tree;
    }
}
