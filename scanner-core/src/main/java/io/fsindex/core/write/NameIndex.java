package io.fsindex.core.write;

import io.fsindex.api.WalkedEntry;
import java.util.List;

/**
 * Finds a listing's entry by name: an open-addressing table of entry positions, about 8 bytes per entry where a
 * {@code HashMap<String, Integer>} costs about 60 (its nodes and boxed positions), which is what a directory of a
 * million files held on top of its listing. The first entry of a name wins, as with {@code putIfAbsent}.
 */
public final class NameIndex {
    private final List<WalkedEntry> entries;
    /** Position + 1 of an entry in each slot, 0 for an empty slot; at most half full. */
    private final int[] slots;

    NameIndex(List<WalkedEntry> entries) {
        this.entries = entries;
        int n = entries.size();
        slots = new int[Integer.highestOneBit(Math.max(8, n) * 2 - 1) << 1];
        for (int i = 0; i < n; i++) {
            String name = entries.get(i).name();
            int slot = slotOf(name);
            if (slots[slot] == 0) {
                slots[slot] = i + 1;
            }
        }
    }

    /** The position of the first entry named {@code name}, or -1. */
    int indexOf(String name) {
        int at = slots[slotOf(name)];
        return at - 1;
    }

    /** The slot that holds {@code name}'s entry, or the empty slot where it would go. */
    private int slotOf(String name) {
        int mask = slots.length - 1;
        int h = name.hashCode();
        for (int slot = (h ^ (h >>> 16)) & mask; ; slot = (slot + 1) & mask) {
            int at = slots[slot];
            if (at == 0 || entries.get(at - 1).name().equals(name)) {
                return slot;
            }
        }
    }
}
