package io.fsindex.examples;

import static io.fsindex.examples.CliText.escaped;

import io.fsindex.api.ContentHashing;
import io.fsindex.api.FileEntry;
import io.fsindex.api.GarbageCollection;
import io.fsindex.api.IndexInfo;
import io.fsindex.api.IndexReader;
import io.fsindex.api.ScanError;
import io.fsindex.api.ScanListener;
import io.fsindex.api.Change;
import io.fsindex.api.ChangeBatch;
import io.fsindex.api.ChangeType;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanProgress;
import io.fsindex.api.ScanRecord;
import io.fsindex.api.ScanResult;
import io.fsindex.api.FsIndexConfigurationException;
import io.fsindex.api.ScanSession;
import io.fsindex.core.internal.Durations;
import io.fsindex.core.FsIndex;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The {@code fsindex} command: scan a tree into an index, list what it holds, summarise it. */
// scope INHERIT: every subcommand gets --help and --version too, new ones included
@Command(name = "fsindex", mixinStandardHelpOptions = true, versionProvider = CliVersion.class,
        scope = CommandLine.ScopeType.INHERIT,
        description = "Keeps a SQL table of files in step with a filesystem tree.")
public final class FsIndexCli {
    /**
     * Every subcommand, in the order help lists them. picocli builds a subcommand's model by reflection when it is
     * added, which is most of a short command's start; {@link #run} adds only the one the command line names.
     */
    private static final List<Class<?>> SUBCOMMANDS = List.of(ScanCommand.class, LsCommand.class,
            InfoCommand.class, GcCommand.class, ChangesCommand.class, QueryCommands.FindCommand.class,
            QueryCommands.DuCommand.class, QueryCommands.DupesCommand.class, WatchCommand.class,
            AutoComplete.GenerateCompletion.class, ScopeCommands.ScopeCommand.class);

    static final String DEFAULT_DB = "jdbc:sqlite:fsindex.db";
    static final String PASSWORD_FILE_ENV = "FSINDEX_PASSWORD_FILE";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    public static void main(String[] args) {
        args = Utf8Relaunch.utf8OrRelaunch(FsIndexCli.class, args);
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** The environment the {@code FSINDEX_*} defaults come from. */
    private final Map<String, String> environment;

    FsIndexCli() {
        this(System.getenv());
    }

    private FsIndexCli(Map<String, String> environment) {
        this.environment = environment;
    }

    /** Runs the command line and returns the exit code: 0 ok, 1 failure, 2 usage error. */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        return run(args, System.getenv(), out, err);
    }

    /** {@link #run(String[], PrintWriter, PrintWriter)} with {@code environment} in place of the process's. */
    static int run(String[] args, Map<String, String> environment, PrintWriter out, PrintWriter err) {
        CommandLine cli = commandLine(environment, args);
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            err.println("fsindex: " + oneLine(e));
            return 1;
        });
        return cli.execute(args);
    }

    /** The command line for {@code args}: every subcommand, or only the one {@code args} names. */
    static CommandLine commandLine(Map<String, String> environment, String[] args) {
        CommandLine cli = new CommandLine(new FsIndexCli(environment));
        Class<?> named = args.length == 0 ? null : subcommandNamed(args[0]);
        // help, completion, usage errors and their suggestions need every subcommand; any other command just its own
        boolean all = named == null || named == AutoComplete.GenerateCompletion.class;
        for (Class<?> subcommand : all ? SUBCOMMANDS : List.<Class<?>>of(named)) {
            cli.addSubcommand(subcommand);
        }
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        CommandLine completion = cli.getSubcommands().get("generate-completion");
        if (completion != null) {
            // picocli's generator names its own version; --version answers the same everywhere
            completion.getCommandSpec().versionProvider(new CliVersion());
        }
        return cli;
    }

    /** The subcommand class whose name is {@code word}, read from its annotation without building its model. */
    private static Class<?> subcommandNamed(String word) {
        for (Class<?> subcommand : SUBCOMMANDS) {
            if (subcommand.getAnnotation(Command.class).name().equals(word)) {
                return subcommand;
            }
        }
        return null;
    }

    private static String oneLine(Throwable e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        return escaped(message);
    }

    /** What every subcommand shares: the {@code --db} option and its output streams. */
    abstract static class IndexCommand implements Callable<Integer> {
        @Option(names = "--db", paramLabel = "URL",
                description = "JDBC URL of the index (default: $FSINDEX_URL, else " + DEFAULT_DB + ")")
        String db;
        @Option(names = "--user", paramLabel = "NAME", description = "database user (default: $FSINDEX_USER)")
        String user;
        // No option takes the password itself: a command line is visible to every user of the machine (ps).
        @Option(names = "--password-file", paramLabel = "FILE", description = "read the database password from FILE"
                + " (default: $FSINDEX_PASSWORD_FILE; else $FSINDEX_PASSWORD)")
        Path passwordFile;
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        PrintWriter out() {
            return spec.commandLine().getOut();
        }

        PrintWriter err() {
            return spec.commandLine().getErr();
        }

        /** Opens the index to scan or collect garbage in, creating the database and tables if need be. */
        FsIndex open() {
            return builder().build();
        }

        /**
         * Opens the index read-only, for commands that only read: they work without write access (a database in a
         * read-only directory, a read-only database user) and never create a database that is not there.
         */
        IndexReader read() {
            return builder().buildReader();
        }

        private FsIndex.Builder builder() {
            Map<String, String> env = ((FsIndexCli) spec.root().userObject()).environment;
            // the tool's own variable: the library reads FSINDEX_PASSWORD, never a file
            String envPasswordFile = env.get(PASSWORD_FILE_ENV);
            FsIndex.Builder builder = FsIndex.builder().environment(env);
            if (db != null || env.get("FSINDEX_URL") == null) {
                builder.jdbcUrl(db != null ? db : DEFAULT_DB);
            }
            if (user != null) {
                builder.user(user);
            }
            Path file = passwordFile != null ? passwordFile
                    : envPasswordFile != null && !envPasswordFile.isBlank() ? Path.of(envPasswordFile) : null;
            if (file != null) {
                builder.password(PasswordFile.read(file, spec.commandLine()));
            }
            return builder;
        }
    }

    @Command(name = "scan", description = "Scan PATH into the index and print what changed.")
    static final class ScanCommand extends IndexCommand {
        @Parameters(paramLabel = "PATH", description = "directory or file to scan")
        Path path;
        @Option(names = "--follow-symlinks", description = "descend into symbolic links to directories")
        boolean followSymlinks;
        @Option(names = "--remove-missing-root", description = "if PATH no longer exists, remove it from the index")
        boolean removeMissingRoot;
        @Option(names = {"-q", "--quiet"}, description = "no progress line")
        boolean quiet;
        @Option(names = "--hash", paramLabel = "off|fingerprint|full", defaultValue = "off",
                description = "read file content: fingerprint (size, first and last 64 KiB) or full (also the"
                        + " SHA-256 of the whole file, stored as content); default off")
        ContentHashing hash;
        @CommandLine.Mixin
        ScopeCommands.RuleOptions rules = new ScopeCommands.RuleOptions();
        @Option(names = "--accept-mount-changes", description = "index what is now at a directory that sits on"
                + " another device than when last scanned (a disk unmounted for good) instead of keeping its rows")
        boolean acceptMountChanges;

        @Override
        public Integer call() throws InterruptedException {
            PrintWriter out = out();
            PrintWriter err = err();
            ProgressLine progress = new ProgressLine(err, !quiet && System.console() != null);
            try (FsIndex index = open()) {
                long feedBefore = index.changeFeedEnd();
                ScanResult r;
                try (CancelOnSignal signal = new CancelOnSignal(err)) {
                    ScanSession session = signal.watch(index.startScan(path, ScanOptions.defaults()
                            .withFollowSymlinks(followSymlinks)
                            .withRemoveMissingRoot(removeMissingRoot)
                            .withContentHashing(hash)
                            .withScope(rules.given() ? rules.scope() : null)
                            .withAcceptMountChanges(acceptMountChanges)
                            .withListener(progress)));
                    r = session.await();
                }
                progress.clear();
                if (r.moved() > 0) {
                    printMoves(index, feedBefore, r.scanId(), out);
                }
                out.printf("scan %d of %s: %d added, %d modified, %d moved, %d unchanged, %d deleted, %d skipped"
                                + " (newer scan), %d errors in %.1f s%n", r.scanId(), escaped(r.root()), r.added(),
                        r.modified(), r.moved(), r.unchanged(), r.deleted(), r.skipped(), r.errors().size(),
                        r.duration().toMillis() / 1000.0);
                List<ScanError> errors = r.errors();
                errors.stream().limit(20).forEach(e -> err.println("  " + escaped(e)));
                if (errors.size() > 20) {
                    err.println("  … and " + (errors.size() - 20) + " more");
                }
                return 0;
            } finally {
                progress.clear();
            }
        }
    }

    /** Prints the moves scan {@code scanId} committed, read back from the change feed after {@code cursor}. */
    static void printMoves(FsIndex index, long cursor, long scanId, PrintWriter out) {
        for (ChangeBatch page = index.changesSince(cursor, 1000); !page.changes().isEmpty();
             page = index.changesSince(page.nextCursor(), 1000)) {
            page.changes().stream().filter(c -> c.scanId() == scanId && c.type() == ChangeType.MOVED)
                    .forEach(c -> out.printf("moved %s -> %s%n", escaped(c.previousPath()), escaped(c.path())));
        }
    }

    @Command(name = "changes", description = "Print the change feed: every committed change after a cursor, one per"
            + " line as SEQ TYPE KIND PATH (MOVED: PATH <- PREVIOUS), then the cursor to continue from.")
    static final class ChangesCommand extends IndexCommand {
        @Option(names = "--since", paramLabel = "N", defaultValue = "0",
                description = "print changes numbered after N (default 0: all the feed still holds)")
        long since;
        @Option(names = {"-f", "--follow"}, description = "keep printing new changes as they are committed")
        boolean follow;
        @Option(names = "--json", description = "one JSON object per change and line: seq, type, kind, path,"
                + " previousPath, id, scanId, at")
        boolean json;

        @Override
        public Integer call() throws InterruptedException {
            PrintWriter out = out();
            try (IndexReader index = read()) {
                long cursor = since;
                while (true) {
                    ChangeBatch page = index.changesSince(cursor, 1000);
                    if (page.resyncNeeded()) {
                        err().printf("fsindex: the change feed no longer holds the changes after %d (it keeps the"
                                + " newest only); rebuild your view from the index, then continue with --since %d%n",
                                cursor, page.nextCursor());
                        return 3;
                    }
                    for (Change c : page.changes()) {
                        if (json) {
                            out.printf("{\"seq\":%d,\"type\":%s,\"kind\":%s,\"path\":%s,\"previousPath\":%s,"
                                    + "\"id\":%d,\"scanId\":%d,\"at\":%s}%n", c.seq(), Json.string(c.type()),
                                    Json.string(c.kind()), Json.string(c.path()), Json.string(c.previousPath()), c.id(),
                                    c.scanId(), Json.string(c.at()));
                        } else {
                            printChange(c, out);
                        }
                    }
                    cursor = page.nextCursor();
                    if (page.changes().isEmpty()) {
                        if (!follow) {
                            err().printf("next: --since %d%n", cursor);
                            return 0;
                        }
                        Thread.sleep(1000);       // polling: the feed is a table, not a notification channel
                    }
                    out.flush();
                }
            }
        }
    }

    /** Prints one change as {@code changes} does: SEQ TYPE KIND PATH (MOVED: PATH <- PREVIOUS). */
    static void printChange(Change c, PrintWriter out) {
        out.printf("%d %s %s %s%s%n", c.seq(), c.type(), c.kind(), escaped(c.path()),
                c.previousPath() == null ? "" : " <- " + escaped(c.previousPath()));
    }

    @Command(name = "ls", description = "List what the index records under PATH.")
    static final class LsCommand extends IndexCommand {
        @Parameters(paramLabel = "PATH", description = "directory (or file) to list")
        Path path;

        @Option(names = "--json", description = "one JSON object per entry and line")
        boolean json;

        @Override
        public Integer call() {
            PrintWriter out = out();
            try (IndexReader index = read()) {
                Optional<FileEntry> entry = index.lookup(path);
                if (entry.isEmpty()) {
                    err().println("fsindex: " + escaped(path) + " is not in the index (scan it first)");
                    return 1;
                }
                // Read a page at a time, so a directory of millions of entries never sits in memory at once.
                List<FileEntry> page = index.children(path, null, PAGE);
                if (page.isEmpty()) {
                    print(entry.get(), out);
                }
                while (!page.isEmpty()) {
                    page.forEach(e -> print(e, out));
                    page = page.size() < PAGE ? List.of()
                            : index.children(path, page.get(page.size() - 1).name(), PAGE);
                }
                return 0;
            }
        }

        private static final int PAGE = 1000;

        private void print(FileEntry e, PrintWriter out) {
            if (json) {
                out.println(QueryCommands.entryJson(e));
            } else {
                out.printf("%-12s %12d  %s  %s%s%n", e.kind(), e.size(), TIME.format(e.mtime()),
                        escaped(e.name()), e.linkTarget() == null ? "" : " -> " + escaped(e.linkTarget()));
            }
        }
    }

    @Command(name = "info", description = "Show the schema version, row counts and recent scans.")
    static final class InfoCommand extends IndexCommand {
        @Option(names = "--scans", defaultValue = "10", description = "how many recent scans to show (default 10)")
        int scans;

        @Option(names = "--json", description = "one JSON object instead of text")
        boolean json;

        private static String infoJson(IndexInfo info) {
            StringBuilder scanList = new StringBuilder();
            for (ScanRecord s : info.recentScans()) {
                scanList.append(scanList.length() == 0 ? "" : ",").append(String.format("{\"id\":%d,\"root\":%s,"
                                + "\"state\":%s,\"startedAt\":%s,\"finishedAt\":%s,\"added\":%d,\"updated\":%d,"
                                + "\"moved\":%d,\"deleted\":%d,\"errors\":%d,\"message\":%s}", s.id(),
                        Json.string(s.root()), Json.string(s.state()), Json.string(s.startedAt()),
                        Json.string(s.finishedAt()), s.added(), s.updated(), s.moved(), s.deleted(), s.errors(),
                        Json.string(s.message())));
            }
            return String.format("{\"database\":%s,\"schemaVersion\":%d,\"entries\":%d,\"directories\":%d,"
                    + "\"recentScans\":[%s]}", Json.string(info.database()), info.schemaVersion(), info.files(),
                    info.directories(), scanList);
        }

        @Override
        public Integer call() {
            PrintWriter out = out();
            try (IndexReader index = read()) {
                IndexInfo info = index.info(scans);
                if (json) {
                    out.println(infoJson(info));
                    return 0;
                }
                out.printf("database:       %s%n", escaped(info.database()));
                out.printf("schema version: %d%n", info.schemaVersion());
                out.printf("entries:        %d (%d directories)%n", info.files(), info.directories());
                out.printf("recent scans:%n");
                for (ScanRecord s : info.recentScans()) {
                    out.printf("  %5d  %-9s %s  %s  +%d ~%d >%d -%d  %d errors%s%s%n", s.id(), s.state(),
                            TIME.format(s.startedAt()), escaped(s.root()), s.added(), s.updated(), s.moved(), s.deleted(),
                            s.errors(),
                            s.state().equals("ABANDONED") && s.finishedAt() != null
                                    ? "  last alive " + TIME.format(s.finishedAt()) : "",
                            s.message() == null ? "" : "  (" + escaped(s.message()) + ")");
                }
                return 0;
            }
        }
    }

    @Command(name = "gc", description = "Delete content rows nothing has referenced for the grace period; print"
            + " each deleted hash.")
    static final class GcCommand extends IndexCommand {
        @Option(names = "--grace", paramLabel = "DURATION", defaultValue = "1d", converter = DurationConverter.class,
                description = "how long content must have been found unreferenced before it is deleted, e.g. 1h,"
                        + " 7d, 90m or ISO-8601 PT1H (default 1d)")
        Duration grace;

        @Override
        public Integer call() {
            PrintWriter out = out();
            try (FsIndex index = open()) {
                GarbageCollection r = index.collectGarbage(grace, hash -> out.println("deleted " + hash));
                out.printf("gc: %d contents examined, %d referenced, %d unreferenced kept for the grace period (%s),"
                        + " %d deleted%n", r.examined(), r.referenced(), r.marked(), grace, r.deleted());
                return 0;
            }
        }
    }

    /** Reads {@code --grace} and other durations as the library does: {@code 1h30m}, {@code 7d}, ISO-8601 {@code PT1H}. */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return Durations.parse(value);
            } catch (FsIndexConfigurationException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** Rewrites one terminal line with the scan's progress, at most ten times a second. */
    static final class ProgressLine implements ScanListener {
        private final PrintWriter err;
        private final boolean enabled;
        private long lastPrint;
        private boolean shown;

        ProgressLine(PrintWriter err, boolean enabled) {
            this.err = err;
            this.enabled = enabled;
        }

        @Override
        public void progress(ScanProgress p) {
            long now = System.nanoTime();
            if (!enabled || now - lastPrint < 100_000_000L) {
                return;
            }
            lastPrint = now;
            String current = p.current() == null ? "" : escaped(p.current());
            if (current.length() > 50) {
                current = "…" + current.substring(current.length() - 49);
            }
            err.printf("\r\033[K%,d dirs  %,d entries  +%,d ~%,d  %d errors  %s", p.directories(), p.entries(),
                    p.added(), p.updated(), p.errors(), current);
            err.flush();
            shown = true;
        }

        void clear() {
            if (shown) {
                err.print("\r\033[K");
                err.flush();
                shown = false;
            }
        }
    }

}
