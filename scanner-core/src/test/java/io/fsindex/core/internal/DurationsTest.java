package io.fsindex.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.FsIndexConfigurationException;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Durations as people write them, and as ISO-8601. */
class DurationsTest {

    @ParameterizedTest
    @CsvSource({"90s, PT1M30S", "5m, PT5M", "1h30m, PT1H30M", "1H30M, PT1H30M", "7d, PT168H", "2w, PT336H",
            "250ms, PT0.25S", "1d2h3m4s5ms, PT26H3M4.005S", "0, PT0S", "0s, PT0S", "' 5m ', PT5M", "PT1H, PT1H",
            "pt1h, PT1H", "P7D, PT168H", "PT1H30M, PT1H30M", "-PT1S, PT-1S"})
    void readsFriendlyAndIsoDurations(String text, String expected) {
        assertThat(Durations.parse(text)).isEqualTo(Duration.parse(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "5", "5x", "1h30", "h", "m5", "1h 30m", "-5m", "5 m", "soon", "PT", "P1Y",
            "1.5h", "ms"})
    void anythingElseIsRefusedWithWhatIsAccepted(String text) {
        assertThatThrownBy(() -> Durations.parse(text))
                .isInstanceOf(FsIndexConfigurationException.class)
                .hasMessageContaining("90s, 5m, 1h30m")
                .hasMessageContaining("PT1H");
    }

    @ParameterizedTest
    @ValueSource(strings = {"300", "5"})
    void aBareNumberIsToldToTakeAUnit(String text) {
        assertThatThrownBy(() -> Durations.parse(text))
                .hasMessageStartingWith("'" + text + "' is not a duration (a number needs a unit, e.g. " + text + "s)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"99999999999999999999s", "9999999999999999d", "2000000000000000000w"})
    void aDurationTooLongIsRefusedNotWrapped(String text) {
        assertThatThrownBy(() -> Durations.parse(text))
                .isInstanceOf(FsIndexConfigurationException.class)
                .hasMessageContaining("too long");
    }
}
