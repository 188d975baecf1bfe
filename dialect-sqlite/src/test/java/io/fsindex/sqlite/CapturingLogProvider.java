package io.fsindex.sqlite;

import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Predicate;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J binding of this module's tests (registered in {@code META-INF/services}): it prints nothing, and hands
 * every line of a logger under {@code io.fsindex} to the {@link Capture}s open at the time, so a test can read what
 * fsindex logged without a mock of fsindex's own code.
 */
public final class CapturingLogProvider implements SLF4JServiceProvider {
    private static final Set<Capture> OPEN = new CopyOnWriteArraySet<>();
    private final IMarkerFactory markers = new BasicMarkerFactory();
    private final MDCAdapter mdc = new NOPMDCAdapter();

    /** One line logged: the logger's name, the level and the formatted message. */
    public record Line(String logger, Level level, String message) {
        @Override
        public String toString() {
            return level + " " + logger + " " + message;
        }
    }

    /** Collects the lines logged while it is open. */
    public static final class Capture implements AutoCloseable {
        private final BlockingQueue<Line> pending = new LinkedBlockingQueue<>();
        private final java.util.List<Line> seen = new java.util.concurrent.CopyOnWriteArrayList<>();

        private Capture() {
        }

        /** Waits for a line that matches, the event a test waits on (the test's own timeout bounds the wait). */
        public Line await(Predicate<Line> wanted) throws InterruptedException {
            for (Line l : seen) {
                if (wanted.test(l)) {
                    return l;
                }
            }
            while (true) {
                Line l = pending.take();
                if (wanted.test(l)) {
                    return l;
                }
            }
        }

        /** The lines logged so far. */
        public java.util.List<Line> lines() {
            return java.util.List.copyOf(seen);
        }

        private void add(Line line) {
            seen.add(line);
            pending.add(line);
        }

        @Override
        public void close() {
            OPEN.remove(this);
        }
    }

    /** Starts collecting. */
    public static Capture capture() {
        Capture c = new Capture();
        OPEN.add(c);
        return c;
    }

    @Override
    public ILoggerFactory getLoggerFactory() {
        return CapturingLogger::new;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markers;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }

    @Override
    public void initialize() {
    }

    private static final class CapturingLogger extends LegacyAbstractLogger {
        private static final long serialVersionUID = 1L;
        private final boolean fsindex;

        CapturingLogger(String name) {
            this.name = name;
            this.fsindex = name.startsWith("io.fsindex.");
        }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] arguments,
                                                   Throwable throwable) {
            Line line = new Line(name, level, MessageFormatter.basicArrayFormat(pattern, arguments));
            OPEN.forEach(c -> c.add(line));
        }

        @Override
        public boolean isTraceEnabled() {
            return false;
        }

        @Override
        public boolean isDebugEnabled() {
            return fsindex;
        }

        @Override
        public boolean isInfoEnabled() {
            return fsindex;
        }

        @Override
        public boolean isWarnEnabled() {
            return fsindex;
        }

        @Override
        public boolean isErrorEnabled() {
            return fsindex;
        }
    }
}
