package io.fsindex.core.write;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When a completed scan refreshes the planner's statistics (where the dialect asks for it). */
class AnalyzeThresholdTest {

    @Test
    void aColdScanOfTenThousandRowsOrMoreAnalyzes() {
        assertThat(SqlFileSink.changedEnoughToAnalyze(10_000, 0)).isTrue();
        assertThat(SqlFileSink.changedEnoughToAnalyze(1_000_000, 4)).isTrue();
    }

    @Test
    void fewerThanTenThousandRowsNeverAnalyze() {
        assertThat(SqlFileSink.changedEnoughToAnalyze(9_999, 0)).isFalse();
    }

    @Test
    void aChangeOfLessThanATenthOfALargeTableDoesNotAnalyze() {
        assertThat(SqlFileSink.changedEnoughToAnalyze(50_000, 10_000_000)).isFalse();
        assertThat(SqlFileSink.changedEnoughToAnalyze(1_000_000, 10_000_000)).isTrue();
    }
}
