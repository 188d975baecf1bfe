package io.fsindex.core.internal;

import io.fsindex.api.Change;
import io.fsindex.api.ScanListener;

/** What fsindex asks of an application's {@link ScanListener}. */
public final class Listeners {
    private Listeners() {
    }

    /**
     * True if {@code listener} overrides {@link ScanListener#changed}: only then is reading each committed
     * transaction's changes back from the feed (a query per transaction) worth it.
     */
    public static boolean wantsChanges(ScanListener listener) {
        try {
            return listener.getClass().getMethod("changed", Change.class).getDeclaringClass() != ScanListener.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
