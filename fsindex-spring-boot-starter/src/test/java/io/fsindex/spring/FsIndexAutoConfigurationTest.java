package io.fsindex.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.fsindex.api.FsIndexConfigurationException;
import io.fsindex.core.FsIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The starter in a real application context on SQLite: the bean, its settings, its data source and its health. */
class FsIndexAutoConfigurationTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(FsIndexAutoConfiguration.class,
                    FsIndexHealthAutoConfiguration.class));

    @TempDir
    Path dir;

    @Test
    void opensTheIndexFromPropertiesAndClosesItWithTheContext() throws Exception {
        Path tree = tree();
        AtomicReference<FsIndex> opened = new AtomicReference<>();
        runner.withPropertyValues("fsindex.url=" + sqlite("index.db"), "fsindex.table-prefix=app_",
                        "fsindex.schemaMode=migrate", "fsindex.retryTimeout=1h30m", "fsindex.orphan-retention=7d",
                        "fsindex.changeFeedCapacity=1_000", "fsindex.scanLease=90s")
                .run(context -> {
                    FsIndex index = context.getBean(FsIndex.class);
                    opened.set(index);
                    assertThat(index.scan(tree).added()).isPositive();
                    assertThat(index.lookup(tree.resolve("a.txt"))).isPresent();
                });
        assertThat(tablesIn(dir.resolve("index.db"))).contains("app_files");
        assertThatThrownBy(() -> opened.get().lookup(tree)).as("closed on shutdown")
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aBadSettingStopsTheStartAndNamesTheKey() {
        runner.withPropertyValues("fsindex.url=" + sqlite("index.db"), "fsindex.retryTimeout=5 minutes")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasRootCauseInstanceOf(FsIndexConfigurationException.class)
                        .hasStackTraceContaining("fsindex.retryTimeout: '5 minutes' is not a duration")
                        .hasStackTraceContaining("1h30m"));
    }

    @Test
    void usesTheApplicationsDataSourceWithoutUrlAndLeavesItOpen() throws Exception {
        Path tree = tree();
        try (HikariDataSource pool = pool(sqlite("app.db"))) {
            // the application owns the pool: the context must not close it either, so what closes it is seen
            runner.withBean(HikariDataSource.class, () -> pool, bean -> bean.setDestroyMethodName(""))
                    .run(context -> context.getBean(FsIndex.class).scan(tree));
            assertThat(pool.isClosed()).as("fsindex never closes the application's pool").isFalse();
            assertThat(tablesIn(dir.resolve("app.db"))).contains("fsindex_files");
        }
    }

    @Test
    void fsindexUrlWinsOverTheApplicationsDataSource() throws Exception {
        Path tree = tree();
        runner.withBean(HikariDataSource.class, () -> pool(sqlite("app.db")))
                .withPropertyValues("fsindex.url=" + sqlite("own.db"))
                .run(context -> context.getBean(FsIndex.class).scan(tree));
        assertThat(tablesIn(dir.resolve("own.db"))).contains("fsindex_files");
        assertThat(tablesIn(dir.resolve("app.db"))).doesNotContain("fsindex_files");
    }

    @Test
    void withNeitherUrlNorDataSourceTheStartFailsSayingWhatToSet() {
        runner.run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                .isInstanceOf(FsIndexConfigurationException.class)
                .hasMessageContaining("fsindex.url").hasMessageContaining("DataSource bean"));
    }

    @Test
    void anApplicationsOwnFsIndexBeanIsKept() {
        FsIndex own = FsIndex.builder().jdbcUrl(sqlite("own.db")).build();
        runner.withPropertyValues("fsindex.url=jdbc:postgresql://nowhere.invalid/never-opened")
                .withBean("myIndex", FsIndex.class, () -> own)
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(FsIndex.class);
                    assertThat(context.getBean(FsIndex.class)).isSameAs(own);
                });
    }

    @Test
    void healthIsUpWithTheSchemaVersionAndDownWhenTheDatabaseIsGone() throws Exception {
        Path tree = tree();
        runner.withBean(HikariDataSource.class, () -> pool(sqlite("app.db")))
                .run(context -> {
                    context.getBean(FsIndex.class).scan(tree);
                    HealthIndicator indicator = context.getBean("fsindexHealthIndicator", HealthIndicator.class);
                    Health up = indicator.health();
                    assertThat(up.getStatus()).isEqualTo(Status.UP);
                    assertThat(up.getDetails()).containsEntry("runningScans", 0L).containsKey("files")
                            .containsKey("schemaVersion");
                    assertThat((Integer) up.getDetails().get("schemaVersion")).isPositive();
                    assertThat((String) up.getDetails().get("database")).startsWith("SQLite");

                    context.getBean(HikariDataSource.class).close();     // the database can no longer be reached
                    Health down = indicator.health();
                    assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(down.getDetails()).containsKey("error");
                });
    }

    @Test
    void noHealthIndicatorWithoutTheActuatorOrWhenTurnedOff() {
        ApplicationContextRunner sqlite = runner.withPropertyValues("fsindex.url=" + sqlite("index.db"));
        sqlite.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
                .run(context -> assertThat(context).hasSingleBean(FsIndex.class)
                        .doesNotHaveBean(FsIndexHealthIndicator.class));
        sqlite.withPropertyValues("management.health.fsindex.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(FsIndexHealthIndicator.class));
        sqlite.run(context -> assertThat(context).hasSingleBean(FsIndexHealthIndicator.class));
    }

    private String sqlite(String file) {
        return "jdbc:sqlite:" + dir.resolve(file);
    }

    private static HikariDataSource pool(String url) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(url);
        return pool;
    }

    private Path tree() throws Exception {
        Path tree = Files.createDirectories(dir.resolve("tree"));
        Files.writeString(tree.resolve("a.txt"), "a");
        return tree;
    }

    private static java.util.List<String> tablesIn(Path sqliteFile) throws SQLException {
        java.util.List<String> names = new java.util.ArrayList<>();
        try (Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + sqliteFile);
             ResultSet rs = c.getMetaData().getTables(null, null, "%", null)) {
            while (rs.next()) {
                names.add(rs.getString("TABLE_NAME"));
            }
        }
        return names;
    }
}
