package io.fsindex.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Summarises where a JFR recording says a scan spent its time: the top frames of the samples taken on threads whose
 * name starts with a prefix ({@code fsindex-scan} by default), each with the fsindex frames that led there.
 * Both Java samples ({@code jdk.ExecutionSample}) and samples of threads inside native code
 * ({@code jdk.NativeMethodSample}) count, each weighted by its sampling period (the {@code profile} settings sample
 * Java every 10 ms and native code every 20 ms), so the figures estimate thread time: a scan spends most of its time
 * in SQLite's C code and in {@code lstat} and {@code readdir}, which Java samples alone do not show.
 * <pre>
 * java -XX:StartFlightRecording=filename=scan.jfr,settings=profile -Xmx256m -cp benchmarks/target/benchmarks.jar \
 *     io.fsindex.benchmarks.Bench --entries 1000000 --engines sqlite --scenarios cold
 * java -cp benchmarks/target/benchmarks.jar io.fsindex.benchmarks.JfrTopFrames scan.jfr [THREAD-PREFIX] [ROWS]
 * </pre>
 */
public final class JfrTopFrames {
    private JfrTopFrames() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: JfrTopFrames RECORDING.jfr [THREAD-NAME-PREFIX (default fsindex-scan)] [ROWS]");
            System.exit(2);
        }
        String prefix = args.length > 1 ? args[1] : "fsindex-scan";
        int rows = args.length > 2 ? Integer.parseInt(args[2]) : 25;
        List<RecordedEvent> events = RecordingFile.readAllEvents(Path.of(args[0]));
        Map<String, Double> periodMillis = periods(events);
        Map<String, Double> byFrame = new HashMap<>();
        Map<String, Double> byKind = new HashMap<>();
        double total = 0;
        for (RecordedEvent e : events) {
            String type = e.getEventType().getName();
            if (!type.equals("jdk.ExecutionSample") && !type.equals("jdk.NativeMethodSample")) {
                continue;
            }
            RecordedThread thread = e.getThread("sampledThread");
            String name = thread == null ? null : thread.getJavaName();
            RecordedStackTrace stack = e.getStackTrace();
            if (name == null || !name.startsWith(prefix) || stack == null || stack.getFrames().isEmpty()) {
                continue;
            }
            List<RecordedFrame> frames = stack.getFrames();
            String top = method(frames.get(0));
            String callers = frames.stream().filter(f -> f.getMethod().getType().getName().startsWith("io.fsindex.")
                            && !f.getMethod().getType().getName().contains("$$Lambda"))
                    .limit(3).map(JfrTopFrames::site).collect(Collectors.joining(" < "));
            String kind = type.equals("jdk.NativeMethodSample") ? "native" : "java";
            double millis = periodMillis.getOrDefault(type, 20.0);
            byFrame.merge(kind + "  " + top + "  <  " + callers, millis, Double::sum);
            byKind.merge(kind, millis, Double::sum);
            total += millis;
        }
        System.out.printf(Locale.ROOT, "about %.1f s of samples on threads named %s*: %.1f s in native code, %.1f s"
                + " in Java (sampling periods %s ms)%n", total / 1000, prefix,
                byKind.getOrDefault("native", 0.0) / 1000,
                byKind.getOrDefault("java", 0.0) / 1000, periodMillis);
        double all = total;
        byFrame.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(rows)
                .forEach(en -> System.out.printf(Locale.ROOT, "%5.1f%%  %s%n", 100.0 * en.getValue() / all,
                        en.getKey()));
    }

    /** The sampling period of each sample event type, from the recording's jdk.ActiveSetting events. */
    private static Map<String, Double> periods(List<RecordedEvent> events) {
        Map<Long, String> sampleTypes = new HashMap<>();
        for (RecordedEvent e : events) {
            String type = e.getEventType().getName();
            if (type.equals("jdk.ExecutionSample") || type.equals("jdk.NativeMethodSample")) {
                sampleTypes.put(e.getEventType().getId(), type);
            }
        }
        Map<String, Double> periods = new HashMap<>();
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals("jdk.ActiveSetting") && "period".equals(e.getString("name"))
                    && sampleTypes.containsKey(e.getLong("id"))) {
                String value = e.getString("value").trim(); // e.g. "10 ms", "20 ms"
                double millis = value.endsWith(" ms") ? Double.parseDouble(value.substring(0, value.length() - 3))
                        : value.endsWith(" s") ? 1000 * Double.parseDouble(value.substring(0, value.length() - 2))
                        : 20.0;
                periods.put(sampleTypes.get(e.getLong("id")), millis);
            }
        }
        return periods;
    }

    private static String method(RecordedFrame f) {
        String type = f.getMethod().getType().getName();
        return type.substring(type.lastIndexOf('.') + 1) + "." + f.getMethod().getName();
    }

    private static String site(RecordedFrame f) {
        return method(f) + ":" + f.getLineNumber();
    }
}
