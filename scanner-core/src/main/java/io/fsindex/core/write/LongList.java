package io.fsindex.core.write;

/** A growable array of longs, for ids of rows a listing touches without keeping a row object each. */
final class LongList {
    private long[] values = new long[8];
    private int size;

    void add(long v) {
        if (size == values.length) {
            values = java.util.Arrays.copyOf(values, size * 2);
        }
        values[size++] = v;
    }

    long get(int i) {
        return values[i];
    }

    void addAll(LongList other) {
        for (int i = 0; i < other.size; i++) {
            add(other.values[i]);
        }
    }

    int size() {
        return size;
    }
}
