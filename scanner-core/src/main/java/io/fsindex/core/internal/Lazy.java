package io.fsindex.core.internal;

import java.util.function.Supplier;

/**
 * A value made the first time it is asked for and kept: what opening an index and a first lookup do not need (the
 * statements jOOQ renders, the jOOQ tables they are built from) is made only when something needs it.
 */
public final class Lazy<T> implements Supplier<T> {
    private Supplier<T> make;
    private volatile T value;

    /** A value {@code make} makes when it is first asked for. */
    public Lazy(Supplier<T> make) {
        this.make = make;
    }

    @Override
    public T get() {
        T v = value;
        if (v == null) {
            synchronized (this) {
                v = value;
                if (v == null) {
                    v = make.get();
                    value = v;
                    make = null;    // what it captured can go
                }
            }
        }
        return v;
    }
}
