package io.fsindex.examples;

import static io.fsindex.examples.CliText.escaped;

import io.fsindex.api.DirectorySize;
import io.fsindex.api.DuplicateGroup;
import io.fsindex.api.FileEntry;
import io.fsindex.api.FileKind;
import io.fsindex.api.FileQuery;
import io.fsindex.api.FindPage;
import io.fsindex.api.IndexReader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The commands that ask the index questions: {@code find}, {@code du} and {@code dupes}. All only read. */
final class QueryCommands {
    private QueryCommands() {
    }

    @Command(name = "find", description = "Print the paths of recorded entries whose name matches PATTERN: a glob"
            + " (*, ?, [a-z], [!a-z], \\ quotes) if it has one of *?[, else text the name contains, ignoring case.")
    static final class FindCommand extends FsIndexCli.IndexCommand {
        @Parameters(paramLabel = "PATTERN", description = "glob or text to look for in names")
        String pattern;

        @Option(names = "--under", paramLabel = "PATH", description = "only entries below directory PATH")
        Path under;

        @Option(names = "--type", paramLabel = "f|d|l", converter = KindConverter.class,
                description = "only regular files (f), directories (d) or symbolic links (l)")
        FileKind type;

        @Option(names = "--size", paramLabel = "[+|-]N[k|M|G|T]", converter = SizeConverter.class,
                description = "size more than (+), less than (-) or exactly N bytes; suffixes are powers of 1024")
        SizeRange size;

        @Option(names = "--newer", paramLabel = "DATE", converter = InstantConverter.class,
                description = "modified after DATE: 2024-01-31, 2024-01-31T12:00 (local time) or an ISO-8601"
                        + " instant such as 2024-01-31T12:00:00Z")
        Instant newer;

        @Option(names = "--json", description = "one JSON object per line instead of one path per line")
        boolean json;

        @Override
        public Integer call() {
            PrintWriter out = out();
            FileQuery query = pattern.chars().anyMatch(c -> c == '*' || c == '?' || c == '[')
                    ? FileQuery.any().withNameGlob(pattern) : FileQuery.any().withNameContaining(pattern);
            query = query.withUnder(under).withKind(type).withModified(newer, null);
            if (size != null) {
                query = query.withSize(size.min(), size.max());
            }
            try (IndexReader index = read()) {
                if (under != null && index.lookup(under).isEmpty()) {
                    err().println("fsindex: " + escaped(under) + " is not in the index (scan it first)");
                    return 1;
                }
                for (FindPage page = index.find(query); ; page = index.find(query.after(page.cursor()))) {
                    for (FileEntry e : page.entries()) {
                        out.println(json ? entryJson(e) : escaped(e.path()));
                    }
                    if (!page.more()) {
                        return 0;
                    }
                }
            }
        }
    }

    @Command(name = "du", description = "Print the total size of the regular files below PATH, as the index records"
            + " it (like du -b), and with --depth that of each directory down to that depth, largest first.")
    static final class DuCommand extends FsIndexCli.IndexCommand {
        @Parameters(paramLabel = "PATH", description = "the directory")
        Path path;

        @Option(names = "--depth", paramLabel = "N", defaultValue = "0",
                description = "also print directories up to N levels below PATH (default 0: PATH only)")
        int depth;

        @Option(names = "--json", description = "one JSON object per line: path, bytes, files, directories")
        boolean json;

        @Override
        public Integer call() {
            if (depth < 0) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--depth must be 0 or more");
            }
            PrintWriter out = out();
            try (IndexReader index = read()) {
                Optional<DirectorySize> total = index.directorySize(path);
                if (total.isEmpty()) {
                    err().println("fsindex: " + escaped(path) + " is not a directory in the index (scan it first)");
                    return 1;
                }
                printBelow(index, total.get().path(), depth, out);
                print(total.get(), out);
                return 0;
            }
        }

        private void printBelow(IndexReader index, Path dir, int levels, PrintWriter out) {
            if (levels == 0) {
                return;
            }
            for (DirectorySize s : index.largestSubdirectories(dir, Integer.MAX_VALUE)) {
                printBelow(index, s.path(), levels - 1, out);
                print(s, out);
            }
        }

        private void print(DirectorySize s, PrintWriter out) {
            if (json) {
                out.printf("{\"path\":%s,\"bytes\":%d,\"files\":%d,\"directories\":%d}%n", Json.string(s.path()),
                        s.bytes(), s.files(), s.directories());
            } else {
                out.printf("%d\t%s%n", s.bytes(), escaped(s.path()));
            }
        }
    }

    @Command(name = "dupes", description = "Print groups of regular files with the same size and content hash, most"
            + " space wasted first; files without a content hash (scanned with --hash fingerprint) are grouped by"
            + " fingerprint, a strong hint but no proof: scan with --hash full to be sure.")
    static final class DupesCommand extends FsIndexCli.IndexCommand {
        @Option(names = "--under", paramLabel = "PATH", description = "only files below directory PATH")
        Path under;

        @Option(names = "--limit", paramLabel = "N", defaultValue = "1000",
                description = "print at most N groups (default 1000)")
        int limit;

        @Option(names = "--json", description = "one JSON object per group and line: size, hash (null in a group by"
                + " fingerprint), fingerprint (null in a group by hash), wasted, paths")
        boolean json;

        @Override
        public Integer call() {
            if (limit <= 0) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--limit must be positive");
            }
            PrintWriter out = out();
            try (IndexReader index = read()) {
                if (under != null && index.lookup(under).isEmpty()) {
                    err().println("fsindex: " + escaped(under) + " is not in the index (scan it first)");
                    return 1;
                }
                List<DuplicateGroup> groups = index.duplicates(under, limit);
                for (DuplicateGroup g : groups) {
                    if (json) {
                        StringBuilder paths = new StringBuilder();
                        for (FileEntry f : g.files()) {
                            paths.append(paths.length() == 0 ? "" : ",").append(Json.string(f.path()));
                        }
                        out.printf("{\"size\":%d,\"hash\":%s,\"fingerprint\":%s,\"wasted\":%d,\"paths\":[%s]}%n",
                                g.size(), Json.string(g.contentHash()), Json.string(g.fingerprint()), g.wastedBytes(),
                                paths);
                    } else {
                        out.printf("%d copies of %d bytes (%d wasted), %s%n", g.files().size(), g.size(),
                                g.wastedBytes(), g.sameContent() ? "sha256 " + g.contentHash()
                                        : "fingerprint " + g.fingerprint() + " (content not compared)");
                        g.files().forEach(f -> out.println("  " + escaped(f.path())));
                    }
                }
                return 0;
            }
        }
    }

    static String entryJson(FileEntry e) {
        return String.format("{\"id\":%d,\"path\":%s,\"kind\":%s,\"size\":%d,\"mtime\":%s,\"linkTarget\":%s,"
                        + "\"contentHash\":%s}", e.id(), Json.string(e.path()), Json.string(e.kind()), e.size(),
                Json.string(e.mtime()), Json.string(e.linkTarget()), Json.string(e.contentHash()));
    }

    /** Reads {@code f}, {@code d} or {@code l}. */
    static final class KindConverter implements CommandLine.ITypeConverter<FileKind> {
        @Override
        public FileKind convert(String value) {
            return switch (value) {
                case "f" -> FileKind.FILE;
                case "d" -> FileKind.DIRECTORY;
                case "l" -> FileKind.SYMLINK;
                default -> throw new CommandLine.TypeConversionException("'" + value + "' is not a type; use f, d or l");
            };
        }
    }

    /** Sizes from {@code min} to {@code max} bytes, both inclusive; null for no bound. */
    record SizeRange(Long min, Long max) {
    }

    /** Reads {@code +10M} and the like. */
    static final class SizeConverter implements CommandLine.ITypeConverter<SizeRange> {
        @Override
        public SizeRange convert(String value) {
            String digits = value.startsWith("+") || value.startsWith("-") ? value.substring(1) : value;
            long unit = 1;
            if (!digits.isEmpty()) {
                int at = "kMGT".indexOf(digits.charAt(digits.length() - 1));
                if (at >= 0) {
                    unit = 1L << (10 * (at + 1));
                    digits = digits.substring(0, digits.length() - 1);
                }
            }
            long n;
            try {
                n = Math.multiplyExact(Long.parseLong(digits), unit);
            } catch (NumberFormatException | ArithmeticException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a size; write e.g. +10M, -512k"
                        + " or 4096");
            }
            if (n < 0) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a size; write e.g. +10M");
            }
            if (value.startsWith("+")) {
                return new SizeRange(n == Long.MAX_VALUE ? n : n + 1, null);
            }
            if (value.startsWith("-")) {
                return new SizeRange(null, n - 1);
            }
            return new SizeRange(n, n);
        }
    }

    /** Reads a date, a local date-time or an instant. */
    static final class InstantConverter implements CommandLine.ITypeConverter<Instant> {
        @Override
        public Instant convert(String value) {
            try {
                if (value.length() == 10) {
                    return LocalDate.parse(value).atStartOfDay(ZoneId.systemDefault()).toInstant();
                }
                if (value.toUpperCase(Locale.ROOT).endsWith("Z") || value.matches(".*[+-]\\d\\d:\\d\\d$")) {
                    return java.time.OffsetDateTime.parse(value).toInstant();
                }
                return LocalDateTime.parse(value).atZone(ZoneId.systemDefault()).toInstant();
            } catch (DateTimeParseException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a date; write e.g. 2024-01-31,"
                        + " 2024-01-31T12:00 or 2024-01-31T12:00:00Z");
            }
        }
    }
}
