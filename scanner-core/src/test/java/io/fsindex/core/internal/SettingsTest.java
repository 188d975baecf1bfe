package io.fsindex.core.internal;

import io.fsindex.core.FsIndex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.FsIndexConfigurationException;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sqlite.SQLiteDataSource;

/**
 * How {@code fsindex.*} properties and {@code FSINDEX_*} variables set a builder, and how a bad one is reported: by
 * the name it was given under, with what it accepts, always as an {@link FsIndexConfigurationException}.
 */
class SettingsTest {

    private static Properties props(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    @Test
    void everyTextualBuilderSettingHasAPropertyAndAVariable() {
        assertThat(Settings.propertyNames()).containsExactly("fsindex.url", "fsindex.user", "fsindex.password",
                "fsindex.tablePrefix", "fsindex.schemaMode", "fsindex.retryTimeout", "fsindex.retryTimeoutSeconds",
                "fsindex.orphanRetention", "fsindex.changeFeedCapacity", "fsindex.scanLease", "fsindex.maxPoolSize",
                "fsindex.nameSearchIndex", "fsindex.scanIdAllocation", "fsindex.plainForeignKeys",
                "fsindex.serializableWrites");
        assertThat(Settings.variableNames()).containsExactly("FSINDEX_URL", "FSINDEX_USER", "FSINDEX_PASSWORD",
                "FSINDEX_TABLE_PREFIX", "FSINDEX_SCHEMA_MODE", "FSINDEX_RETRY_TIMEOUT",
                "FSINDEX_RETRY_TIMEOUT_SECONDS", "FSINDEX_ORPHAN_RETENTION", "FSINDEX_CHANGE_FEED_CAPACITY",
                "FSINDEX_SCAN_LEASE", "FSINDEX_MAX_POOL_SIZE", "FSINDEX_NAME_SEARCH_INDEX",
                "FSINDEX_SCAN_ID_ALLOCATION", "FSINDEX_PLAIN_FOREIGN_KEYS", "FSINDEX_SERIALIZABLE_WRITES");
    }

    @Test
    void goodValuesAreAccepted() {
        assertThatCode(() -> FsIndex.builder().properties(props("fsindex.url", "jdbc:sqlite:x.db",
                "fsindex.user", "u", "fsindex.password", "p", "fsindex.tablePrefix", "app_",
                "fsindex.schemaMode", " Validate ", "fsindex.retryTimeout", "PT2M",
                "fsindex.orphanRetention", "1h30m", "fsindex.changeFeedCapacity", "1_000_000",
                "fsindex.scanLease", "2m", "fsindex.maxPoolSize", " 4 ", "fsindex.nameSearchIndex", " On ",
                "fsindex.scanIdAllocation", " Native ", "fsindex.plainForeignKeys", "true",
                "fsindex.serializableWrites", "off", "other.key", "ignored")))
                .doesNotThrowAnyException();
        assertThatCode(() -> FsIndex.builder().environment(Map.of("FSINDEX_PLAIN_FOREIGN_KEYS", "on",
                "FSINDEX_SERIALIZABLE_WRITES", "true"))).doesNotThrowAnyException();
        assertThatCode(() -> FsIndex.builder().environment(Map.of("FSINDEX_SCHEMA_MODE", "migrate",
                "FSINDEX_RETRY_TIMEOUT", "90s", "FSINDEX_ORPHAN_RETENTION", "0", "FSINDEX_CHANGE_FEED_CAPACITY", "10",
                "FSINDEX_MAX_POOL_SIZE", "64", "FSINDEX_NAME_SEARCH_INDEX", "false", "FSINDEX_SCAN_ID_ALLOCATION", "ordered",
                "FSINDEX_SOMETHING_ELSE", "left for tools built on fsindex", "FSINDEX_USER", "")))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @CsvSource({"5", "300", "5m", "1h30m", "PT5M"})
    void retryTimeoutSecondsStillTakesSecondsAndNowDurations(String value) {
        assertThatCode(() -> FsIndex.builder().properties(props("fsindex.retryTimeoutSeconds", value)))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "fsindex.schemaMode|create|fsindex.schemaMode: 'create' is not a schema mode; expected migrate",
            "fsindex.retryTimeoutSeconds|soon|fsindex.retryTimeoutSeconds: 'soon' is not a duration; expected",
            "fsindex.retryTimeoutSeconds|99999999999999999999|fsindex.retryTimeoutSeconds: '99999999999999999999' is"
                    + " too many seconds",
            "fsindex.retryTimeout|300|fsindex.retryTimeout: '300' is not a duration (a number needs a unit, e.g. 300s)",
            "fsindex.retryTimeout|-PT1S|fsindex.retryTimeout: retryTimeout must be zero or positive; got PT-1S",
            "fsindex.orphanRetention|a week|fsindex.orphanRetention: 'a week' is not a duration; expected",
            "fsindex.orphanRetention|-PT1H|fsindex.orphanRetention: orphanRetention must be zero or positive",
            "fsindex.changeFeedCapacity|lots|fsindex.changeFeedCapacity: 'lots' is not a whole number; expected a"
                    + " number of changes, at least 1",
            "fsindex.changeFeedCapacity|0|fsindex.changeFeedCapacity: changeFeedCapacity must be at least 1; got 0",
            "fsindex.maxPoolSize|many|fsindex.maxPoolSize: 'many' is not a whole number; expected a number of"
                    + " connections, at least 1",
            "fsindex.maxPoolSize|0|fsindex.maxPoolSize: maxPoolSize must be at least 1; got 0",
            "fsindex.nameSearchIndex|yes|fsindex.nameSearchIndex: 'yes' is not on or off; expected true or false",
            "fsindex.scanIdAllocation|random|fsindex.scanIdAllocation: 'random' is not a scan id allocation; expected"
                    + " ordered",
            "fsindex.tablePrefix|my-app_|fsindex.tablePrefix: table prefix must be letters, digits and underscores"})
    void aBadPropertyIsNamedWithWhatItAccepts(String key, String value, String message) {
        assertThatThrownBy(() -> FsIndex.builder().properties(props(key, value)))
                .isInstanceOf(FsIndexConfigurationException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void aBadVariableIsNamedAsTheVariable() {
        assertThatThrownBy(() -> FsIndex.builder().environment(Map.of("FSINDEX_SCHEMA_MODE", "create")))
                .isInstanceOf(FsIndexConfigurationException.class)
                .hasMessageStartingWith("FSINDEX_SCHEMA_MODE: 'create' is not a schema mode");
        assertThatThrownBy(() -> FsIndex.builder().environment(Map.of("FSINDEX_RETRY_TIMEOUT_SECONDS", "5 min")))
                .hasMessageStartingWith("FSINDEX_RETRY_TIMEOUT_SECONDS: '5 min' is not a duration");
        assertThatThrownBy(() -> FsIndex.builder().environment(Map.of("FSINDEX_RETRY_TIMEOUT", "1m",
                "FSINDEX_RETRY_TIMEOUT_SECONDS", "60")))
                .isInstanceOf(FsIndexConfigurationException.class)
                .hasMessage("both FSINDEX_RETRY_TIMEOUT and FSINDEX_RETRY_TIMEOUT_SECONDS are set; set only"
                        + " FSINDEX_RETRY_TIMEOUT");
    }

    @Test
    void anUnknownFsindexPropertyIsRefusedByNameWithTheKnownOnes() {
        assertThatThrownBy(() -> FsIndex.builder().properties(props("fsindex.url", "jdbc:sqlite:x.db",
                "fsindex.orphanRetension", "1d", "fsindex.tablePrefx", "a_")))
                .isInstanceOf(FsIndexConfigurationException.class)
                .hasMessageStartingWith("unknown property fsindex.orphanRetension, fsindex.tablePrefx; known: [")
                .hasMessageContaining("fsindex.orphanRetention")
                .hasMessageContaining("fsindex.changeFeedCapacity");
    }

    @Test
    void noDatabaseNamesEveryWayToGiveOne() {
        assertThatThrownBy(() -> FsIndex.builder().environment(Map.of()).build())
                .isInstanceOf(FsIndexConfigurationException.class)
                .hasMessageContaining("FSINDEX_URL")
                .hasMessageContaining("fsindex.url")
                .hasMessageContaining("jdbcUrl(")
                .hasMessageContaining("dataSource(");
        assertThatThrownBy(() -> FsIndex.builder().jdbcUrl("jdbc:sqlite:x.db?password=secret")
                .dataSource(new SQLiteDataSource()).build())
                .isInstanceOf(FsIndexConfigurationException.class)
                .hasMessageContaining("set only one")
                .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> FsIndex.builder().dataSource(new SQLiteDataSource()).maxPoolSize(4).build())
                .isInstanceOf(FsIndexConfigurationException.class)
                .hasMessageStartingWith("maxPoolSize applies to the pool fsindex opens for a JDBC URL");
        assertThatThrownBy(() -> FsIndex.builder().dataSource(new SQLiteDataSource()).metricRegistry(new Object())
                .build())
                .isInstanceOf(FsIndexConfigurationException.class)
                .hasMessageStartingWith("metricRegistry applies to the pool fsindex opens for a JDBC URL");
    }

    @Test
    void builderValidationThrowsTheConfigurationException() {
        FsIndex.Builder b = FsIndex.builder();
        assertThatThrownBy(() -> b.orphanRetention(null)).isInstanceOf(FsIndexConfigurationException.class);
        assertThatThrownBy(() -> b.orphanRetention(Duration.ofSeconds(-1)))
                .isInstanceOf(FsIndexConfigurationException.class);
        assertThatThrownBy(() -> b.changeFeedCapacity(0)).isInstanceOf(FsIndexConfigurationException.class);
        assertThatThrownBy(() -> b.tablePrefix("x;drop")).isInstanceOf(FsIndexConfigurationException.class);
        assertThatThrownBy(() -> b.tablePrefix(null)).isInstanceOf(FsIndexConfigurationException.class);
        assertThatThrownBy(() -> b.schemaMode(null)).isInstanceOf(FsIndexConfigurationException.class)
                .hasMessage("schemaMode must not be null");
        assertThatThrownBy(() -> b.walker(null)).isInstanceOf(FsIndexConfigurationException.class);
        assertThatThrownBy(() -> b.retryTimeout(null)).isInstanceOf(FsIndexConfigurationException.class);
        assertThatThrownBy(() -> b.maxPoolSize(0)).isInstanceOf(FsIndexConfigurationException.class);
        assertThatThrownBy(() -> b.metricRegistry(null)).isInstanceOf(FsIndexConfigurationException.class);
        assertThatThrownBy(() -> b.retryTimeout(Duration.ofSeconds(-1)))
                .isInstanceOf(FsIndexConfigurationException.class);
    }

    @Test
    void aPasswordNeverAppearsInAMessage() {
        assertThatThrownBy(() -> FsIndex.builder().properties(props("fsindex.password", "hunter2",
                "fsindex.schemaMode", "nope")).build())
                .hasMessageNotContaining("hunter2");
    }
}
