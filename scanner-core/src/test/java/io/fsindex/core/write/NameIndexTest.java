package io.fsindex.core.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.WalkedEntry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NameIndexTest {
    @Test
    void findsEveryNameAndOnlyListedOnes() {
        List<WalkedEntry> entries = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            entries.add(new WalkedEntry("f" + i, null));
        }
        NameIndex index = new NameIndex(entries);
        for (int i = 0; i < 10_000; i++) {
            assertThat(index.indexOf("f" + i)).isEqualTo(i);
        }
        assertThat(index.indexOf("f10000")).isEqualTo(-1);
        assertThat(index.indexOf("")).isEqualTo(-1);
    }

    @Test
    void namesWithTheSameHashAreToldApartAndTheFirstOfTwoEqualNamesWins() {
        // "Aa" and "BB" have the same String.hashCode, so they probe the same slots.
        List<WalkedEntry> entries = List.of(new WalkedEntry("Aa", null), new WalkedEntry("BB", null),
                new WalkedEntry("AaAa", null), new WalkedEntry("BBBB", null), new WalkedEntry("Aa", null));
        NameIndex index = new NameIndex(entries);
        assertThat(index.indexOf("Aa")).isZero();
        assertThat(index.indexOf("BB")).isEqualTo(1);
        assertThat(index.indexOf("AaBB")).isEqualTo(-1);
        assertThat(index.indexOf("BBBB")).isEqualTo(3);
        assertThat(new NameIndex(List.of()).indexOf("x")).isEqualTo(-1);
    }
}
