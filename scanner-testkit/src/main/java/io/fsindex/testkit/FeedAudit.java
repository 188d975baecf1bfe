package io.fsindex.testkit;

import io.fsindex.api.Change;
import io.fsindex.api.ChangeBatch;
import io.fsindex.api.ChangeType;
import io.fsindex.api.IndexReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A consumer of the change feed that reads it all along, on a thread of its own, from the feed's first change, as an
 * application following the index would, and checks what it received: numbers without gaps, each entry's changes a
 * possible sequence of transitions (no {@code DELETED} for an entry already deleted, no {@code ADDED} for an entry
 * already there, no {@code MODIFIED} for an entry not there), and replaying the feed giving exactly the index.
 * A read that fails (the database restarting, a file locked) is retried; such failures are counted, never fatal.
 */
public final class FeedAudit implements AutoCloseable {
    private static final int PAGE = 500;
    /**
     * How long the audit waits after a read that found nothing: once a second, as the command-line tool follows.
     * A dialect that keeps idle connections open for a while (SQLite's hold their share of the file's locks) must
     * close them sooner, or an exclusive locker under test never gets in between two reads.
     */
    public static final Duration IDLE_POLL = Duration.ofSeconds(1);
    private static final long CATCH_UP_MINUTES = 2;

    private final IndexReader reader;
    private final Thread thread;
    private final List<Change> received = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private final ReplayedFeed model = new ReplayedFeed();
    private volatile boolean stopping;
    private long cursor;
    private int failedReads;
    private String lastReadFailure;

    /** Starts reading the feed of {@code reader} from its beginning. */
    public FeedAudit(IndexReader reader) {
        this.reader = reader;
        this.thread = new Thread(this::follow, "feed-audit");
        thread.setDaemon(true);
        thread.start();
    }

    private void follow() {
        while (!stopping) {
            if (!poll()) {
                // catchUp wakes it at once.
                LockSupport.parkNanos(IDLE_POLL.toNanos());
            }
        }
    }

    /** Reads one page; true if it got changes. */
    private boolean poll() {
        long from;
        synchronized (this) {
            from = cursor;
        }
        ChangeBatch page;
        try {
            page = reader.changesSince(from, PAGE);
        } catch (RuntimeException e) {
            synchronized (this) {
                failedReads++;
                lastReadFailure = String.valueOf(e.getMessage());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            return false;
        }
        synchronized (this) {
            if (page.resyncNeeded()) {
                problems.add("the feed asked for a resync after cursor " + from + " (changes were pruned unread)");
            }
            for (Change c : page.changes()) {
                accept(c);
            }
            cursor = page.nextCursor();
            notifyAll();
        }
        return !page.changes().isEmpty();
    }

    private void accept(Change c) {
        long expected = received.isEmpty() ? 1 : received.get(received.size() - 1).seq() + 1;
        if (c.seq() != expected) {
            problems.add("gap in the feed: change " + c.seq() + " follows " + (expected - 1));
        }
        received.add(c);
        boolean present = model.has(c.id());
        switch (c.type()) {
            case ADDED -> {
                if (present) {
                    problems.add("ADDED for an entry already in the index: " + describe(c));
                }
            }
            case MODIFIED -> {
                if (!present) {
                    problems.add("MODIFIED for an entry not in the index: " + describe(c));
                }
            }
            case DELETED -> {
                if (!present) {
                    problems.add("DELETED for an entry not in the index (deleted twice?): " + describe(c));
                }
            }
            case MOVED -> Objects.requireNonNull(c.previousPath(), "previous path of a move");
        }
        model.apply(c);
    }

    private String describe(Change c) {
        List<String> history = new ArrayList<>();
        for (Change earlier : received) {
            if (earlier.id() == c.id()) {
                history.add(earlier.type() + " (change " + earlier.seq() + ", scan " + earlier.scanId() + ")");
            }
        }
        return "entry " + c.id() + " " + c.path() + ", history " + String.join(" · ", history);
    }

    /** Waits until this consumer has read every change committed before the call. */
    public void catchUp() {
        long end = endOfFeed();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(CATCH_UP_MINUTES);
        synchronized (this) {
            while (cursor < end) {
                LockSupport.unpark(thread);
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("the feed consumer did not reach change " + end + " within "
                            + CATCH_UP_MINUTES + " minutes (at " + cursor + "; last read failure: " + lastReadFailure
                            + ")");
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted", e);
                }
            }
        }
    }

    private long endOfFeed() {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(CATCH_UP_MINUTES);
        while (true) {
            try {
                return reader.changeFeedEnd();
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
        }
    }

    /**
     * After {@link #catchUp}, with no scan running: every problem the feed showed so far, and every entry on which
     * replaying the feed disagrees with {@code indexById} (path by id of every entry in the index, see
     * {@link CampaignChecks#indexById}). Problems already returned are not returned again.
     */
    public synchronized List<String> problems(Map<Long, String> indexById) {
        List<String> out = new ArrayList<>(problems);
        problems.clear();
        Map<Long, String> missing = new TreeMap<>();
        Map<Long, String> extra = new TreeMap<>();
        Map<Long, String> elsewhere = new TreeMap<>();
        indexById.forEach((id, path) -> {
            Path at = model.paths().get(id);
            String replayed = at == null ? null : at.toString();
            if (replayed == null) {
                missing.put(id, path);
            } else if (!replayed.equals(path)) {
                elsewhere.put(id, "feed says " + replayed + ", index says " + path);
            }
        });
        model.paths().forEach((id, path) -> {
            if (!indexById.containsKey(id)) {
                extra.put(id, path.toString());
            }
        });
        if (!extra.isEmpty()) {
            out.add(extra.size() + " entries left the index without a DELETED in the feed, e.g. "
                    + first(extra));
        }
        if (!missing.isEmpty()) {
            out.add(missing.size() + " entries are in the index but not in the replayed feed, e.g. " + first(missing));
        }
        if (!elsewhere.isEmpty()) {
            out.add(elsewhere.size() + " entries are elsewhere in the replayed feed than in the index, e.g. "
                    + first(elsewhere));
        }
        return out;
    }

    private String first(Map<Long, String> entries) {
        List<String> some = new ArrayList<>();
        entries.entrySet().stream().limit(3).forEach(e -> {
            String history = received.stream().filter(c -> c.id() == e.getKey())
                    .map(c -> c.type() + " (scan " + c.scanId() + ")").reduce((a, b) -> a + " · " + b).orElse("none");
            some.add("entry " + e.getKey() + " " + e.getValue() + " [feed history: " + history + "]");
        });
        return String.join("; ", some);
    }

    /** How many changes were received. */
    public synchronized int received() {
        return received.size();
    }

    /** How many reads failed and were retried (e.g. while the server restarted). */
    public synchronized int failedReads() {
        return failedReads;
    }

    /** The types of change received, counted. */
    public synchronized Map<ChangeType, Integer> byType() {
        Map<ChangeType, Integer> out = new TreeMap<>();
        received.forEach(c -> out.merge(c.type(), 1, Integer::sum));
        return out;
    }

    /** Stops reading (the reader is the caller's to close). */
    @Override
    public void close() {
        stopping = true;
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.MINUTES.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Path by id of every entry the index holds (orphans and rows below them are not in it), read raw. */
    static Map<Long, String> pathsById(Map<Long, Object[]> rows) {
        Map<Long, String> out = new HashMap<>();
        for (Long id : rows.keySet()) {
            String path = pathOf(rows, id);
            if (path != null) {
                out.put(id, path);
            }
        }
        return out;
    }

    private static String pathOf(Map<Long, Object[]> rows, long id) {
        Object[] row = rows.get(id);
        if (row == null || (Boolean) row[2]) {
            return null;                               // an orphan, or below one
        }
        long parent = (Long) row[0];
        if (parent == 0) {
            return (String) row[1];
        }
        String above = pathOf(rows, parent);
        return above == null ? null : Path.of(above).resolve((String) row[1]).toString();
    }
}
