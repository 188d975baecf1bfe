package io.fsindex.benchmarks;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The one table a benchmark run prints, as Markdown so it can go into {@code docs/benchmarks.md} unchanged. */
final class Report {
    /**
     * One line of the table.
     *
     * @param ratio      seconds divided by the seconds of {@code relativeTo}; NaN for a line that is its own reference
     * @param target     the target for the ratio, or "" if none
     * @param met        whether the target is met; null if there is no target or it cannot be judged
     * @param heap       heap use in this JVM; {@link HeapMonitor.Usage#NONE} for work done by other processes
     */
    record Row(String scenario, String engine, long entries, double seconds, double ratio, String relativeTo,
               String target, Boolean met, HeapMonitor.Usage heap) {
    }

    private final List<Row> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    void add(Row row) {
        rows.add(row);
    }

    void note(String note) {
        notes.add(note);
    }

    List<Row> rows() {
        return List.copyOf(rows);
    }

    void print(PrintWriter out) {
        String[] header = {"scenario", "engine", "entries", "seconds", "entries/s", "ratio", "relative to", "target",
                "met", "peak heap", "max live heap"};
        List<String[]> lines = new ArrayList<>();
        lines.add(header);
        for (Row r : rows) {
            lines.add(new String[]{r.scenario(), r.engine(), String.format(Locale.ROOT, "%,d", r.entries()),
                    Double.isNaN(r.seconds()) ? "-" : String.format(Locale.ROOT, "%.2f", r.seconds()),
                    Double.isNaN(r.seconds()) || r.seconds() <= 0 ? "-"
                            : String.format(Locale.ROOT, "%,.0f", r.entries() / r.seconds()),
                    Double.isNaN(r.ratio()) ? "-" : String.format(Locale.ROOT, "%.2f", r.ratio()),
                    r.relativeTo(), r.target(), r.met() == null ? "" : r.met() ? "yes" : "NO",
                    mib(r.heap().peak()), mib(r.heap().live())});
        }
        int[] width = new int[header.length];
        for (String[] line : lines) {
            for (int i = 0; i < line.length; i++) {
                width[i] = Math.max(width[i], line[i].length());
            }
        }
        boolean[] right = {false, false, true, true, true, true, false, false, false, true, true};
        for (int l = 0; l < lines.size(); l++) {
            StringBuilder sb = new StringBuilder("|");
            for (int i = 0; i < header.length; i++) {
                String cell = lines.get(l)[i];
                String pad = " ".repeat(width[i] - cell.length());
                sb.append(' ').append(right[i] ? pad + cell : cell + pad).append(" |");
            }
            out.println(sb);
            if (l == 0) {
                StringBuilder rule = new StringBuilder("|");
                for (int i = 0; i < header.length; i++) {
                    rule.append(right[i] ? "-".repeat(width[i] + 1) + ":|" : "-".repeat(width[i] + 2) + "|");
                }
                out.println(rule);
            }
        }
        if (!notes.isEmpty()) {
            out.println();
            for (String n : notes) {
                out.println("- " + n);
            }
        }
        out.flush();
    }

    private static String mib(long bytes) {
        return bytes < 0 ? "-" : String.format(Locale.ROOT, "%.0f MiB", bytes / (1024.0 * 1024.0));
    }
}
