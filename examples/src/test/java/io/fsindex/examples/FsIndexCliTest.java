package io.fsindex.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.core.schema.SchemaManager;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class FsIndexCliTest {
    @TempDir
    Path tmp;

    private final CliRun cli = new CliRun();
    private final StringWriter out = cli.out;
    private final StringWriter err = cli.err;

    private int run(String... args) {
        return cli.run(args);
    }

    @Test
    void scanThenRescanThenListAndInfo() throws IOException {
        Path tree = Files.createDirectories(tmp.resolve("tree"));
        Files.createDirectories(tree.resolve("sub"));
        Files.writeString(tree.resolve("a.txt"), "hello");
        String db = "jdbc:sqlite:" + tmp.resolve("cli.db");

        assertThat(run("scan", tree.toString(), "--db", db)).isZero();
        assertThat(out.toString()).contains("scan 1 of").contains("0 deleted").contains("0 errors");

        assertThat(run("scan", tree.toString(), "--db", db)).isZero();
        assertThat(out.toString()).contains("scan 2 of").contains("0 added");

        assertThat(run("ls", tree.toString(), "--db", db)).isZero();
        assertThat(out.toString()).contains("FILE").contains("a.txt").contains("DIRECTORY").contains("sub");

        assertThat(run("info", "--db", db)).isZero();
        assertThat(out.toString()).contains("schema version: " + SchemaManager.CURRENT_VERSION).contains("COMPLETED").contains("SQLite");
    }

    @Test
    void scanPrintsMovesAndChangesPrintsTheFeed() throws IOException {
        Path tree = Files.createDirectories(tmp.resolve("tree"));
        Files.createDirectories(tree.resolve("old"));
        Files.writeString(tree.resolve("old/a.txt"), "hello");
        String db = "jdbc:sqlite:" + tmp.resolve("cli.db");
        assertThat(run("scan", tree.toString(), "--db", db)).isZero();

        Files.move(tree.resolve("old"), tree.resolve("new"));
        assertThat(run("scan", tree.toString(), "--db", db)).isZero();
        Path real = tree.toRealPath();
        assertThat(out.toString()).contains("moved " + real.resolve("old") + " -> " + real.resolve("new"))
                .contains("1 moved");

        assertThat(run("changes", "--db", db)).isZero();
        assertThat(out.toString()).contains(" ADDED FILE " + real.resolve("old/a.txt"))
                .contains(" MOVED DIRECTORY " + real.resolve("new") + " <- " + real.resolve("old"));
        String last = out.toString().strip().lines().reduce((a, b) -> b).orElseThrow();
        long end = Long.parseLong(last.substring(0, last.indexOf(' ')));
        assertThat(err.toString()).contains("next: --since " + end);

        assertThat(run("changes", "--db", db, "--since", Long.toString(end))).isZero();
        assertThat(out.toString()).isEmpty();
        assertThat(run("changes", "--db", db, "--since", Long.toString(end + 10))).isEqualTo(1);
        assertThat(err.toString()).contains("beyond the change feed's end");
    }

    @Test
    void failureIsOneLineAndExitCodeOne() {
        String db = "jdbc:sqlite:" + tmp.resolve("cli.db");
        assertThat(run("scan", tmp.resolve("missing").toString(), "--db", db)).isEqualTo(1);
        assertThat(err.toString()).startsWith("fsindex: ").contains("does not exist");
        assertThat(err.toString().strip().lines()).hasSize(1);
    }

    @Test
    void unknownDatabaseNamesWhatIsAvailable() {
        assertThat(run("info", "--db", "jdbc:nosuchdb://x")).isEqualTo(1);
        assertThat(err.toString()).contains("jdbc:nosuchdb://x").contains("SQLite");
    }

    @Test
    void lsOfAPathNotInTheIndexSaysSo() throws IOException {
        String db = "jdbc:sqlite:" + tmp.resolve("cli.db");
        Path scanned = Files.createDirectories(tmp.resolve("scanned"));
        assertThat(run("scan", scanned.toString(), "--db", db)).isZero();
        assertThat(run("ls", tmp.resolve("elsewhere").toString(), "--db", db)).isEqualTo(1);
        assertThat(err.toString()).contains("not in the index");
    }

    @Test
    void aRootScannedThroughASymlinkIsListedThroughIt() throws IOException {
        Path tree = Files.createDirectories(tmp.resolve("tree"));
        Files.createDirectories(tree.resolve("sub"));
        Files.writeString(tree.resolve("a.txt"), "hello");
        Path link = Files.createSymbolicLink(tmp.resolve("link"), tree);
        String db = "jdbc:sqlite:" + tmp.resolve("cli.db");

        assertThat(run("scan", link.toString(), "--db", db)).isZero();
        assertThat(out.toString()).contains("scan 1 of " + tree.toRealPath());

        assertThat(run("ls", link.toString(), "--db", db)).as(err.toString()).isZero();
        assertThat(out.toString().lines()).hasSize(2);
        assertThat(out.toString()).contains("a.txt").contains("sub");
        assertThat(run("ls", link.resolve("sub").toString(), "--db", db)).as(err.toString()).isZero();
    }

    @Test
    void scanWithHashesThenGcDeletesContentNothingReferences() throws Exception {
        Path tree = Files.createDirectories(tmp.resolve("tree"));
        Files.writeString(tree.resolve("a.txt"), "first");
        String db = "jdbc:sqlite:" + tmp.resolve("cli.db");
        String first = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest("first".getBytes()));

        assertThat(run("scan", tree.toString(), "--db", db, "--hash", "full")).isZero();
        Files.writeString(tree.resolve("a.txt"), "second, longer");
        assertThat(run("scan", tree.toString(), "--db", db, "--hash", "FULL")).isZero();

        assertThat(run("gc", "--db", db, "--grace", "PT1H")).isZero();
        assertThat(out.toString()).doesNotContain("deleted ")
                .contains("2 contents examined, 1 referenced, 1 unreferenced kept").contains("0 deleted");
        assertThat(run("gc", "--db", db, "--grace", "1h")).isZero();
        assertThat(out.toString()).doesNotContain("deleted ");
        assertThat(run("gc", "--db", db, "--grace", "0s")).isZero();
        assertThat(out.toString()).contains("deleted " + first).contains("1 deleted");
        assertThat(run("gc", "--db", db)).isZero();
        assertThat(out.toString()).contains("1 contents examined, 1 referenced").doesNotContain("deleted ");

        assertThat(run("scan", tree.toString(), "--db", db, "--hash", "fingerprint")).isZero();
    }

    @Test
    void gcGraceAcceptsFriendlyAndIsoDurations() {
        FsIndexCli.DurationConverter d = new FsIndexCli.DurationConverter();
        assertThat(d.convert("7d")).isEqualTo(java.time.Duration.ofDays(7));
        assertThat(d.convert("1h30m")).isEqualTo(java.time.Duration.ofMinutes(90));
        assertThat(d.convert("250ms")).isEqualTo(java.time.Duration.ofMillis(250));
        assertThat(d.convert("PT1H")).isEqualTo(java.time.Duration.ofHours(1));
        assertThat(d.convert("p2d")).isEqualTo(java.time.Duration.ofDays(2));
        assertThat(run("gc", "--grace", "soon")).isEqualTo(2);
        assertThat(err.toString()).contains("not a duration");
        assertThat(run("scan", tmp.toString(), "--hash", "sha1")).isEqualTo(2);
    }

    @Test
    void everySubcommandAnswersHelp() {
        CommandLine cli = FsIndexCli.commandLine(System.getenv(), new String[0]);
        assertThat(cli.getSubcommands()).containsKeys("scan", "ls", "info", "gc", "changes", "dupes", "scope");
        // any other command line builds only the subcommand it names
        assertThat(FsIndexCli.commandLine(System.getenv(), new String[] {"info", "--db", "x"}).getSubcommands())
                .containsOnlyKeys("info");
        for (String name : cli.getSubcommands().keySet()) {
            for (String help : List.of("--help", "-h")) {
                assertThat(run(name, help)).as(name + " " + help).isZero();
                assertThat(out.toString()).as(name + " " + help).startsWith("Usage: fsindex " + name)
                        .contains("--help").contains("--version");
                if (!name.equals("generate-completion")) {
                    assertThat(out.toString()).as(name + " " + help).contains("--db=URL");
                }
                assertThat(err.toString()).isEmpty();
            }
        }
        assertThat(run("gc", "--help")).isZero();
        assertThat(out.toString()).contains("--grace=DURATION");
    }

    @Test
    void versionIsTheBuildsOnEveryCommand() {
        String expected = "fsindex " + System.getProperty("fsindex.expectedVersion");
        assertThat(System.getProperty("fsindex.expectedVersion")).as("set by the build").isNotBlank();
        assertThat(run("--version")).isZero();
        assertThat(out.toString().lines().findFirst()).hasValue(expected);
        assertThat(out.toString()).contains("Java " + System.getProperty("java.version"));
        assertThat(run("gc", "--version")).isZero();
        assertThat(out.toString().lines().findFirst()).hasValue(expected);
        assertThat(run("-V")).isZero();
        assertThat(out.toString()).startsWith(expected);
    }

    @Test
    void usageErrorExitsWithTwo() {
        assertThat(run("scan")).isEqualTo(2);
    }

    @Test
    void scanWithRulesStoresThemAndScopeShowsAndChangesThem() throws IOException {
        Path tree = Files.createDirectories(tmp.resolve("tree")).toRealPath();
        Files.createDirectories(tree.resolve("node_modules/x"));
        Files.writeString(tree.resolve("node_modules/x/a.js"), "x");
        Files.writeString(tree.resolve("a.txt"), "hello");
        Files.writeString(tree.resolve("b.tmp"), "tmp");
        String db = "jdbc:sqlite:" + tmp.resolve("cli.db");

        assertThat(run("scan", tree.toString(), "--db", db, "--exclude", "node_modules/", "--exclude", "*.tmp",
                "--one-file-system")).isZero();
        assertThat(run("ls", tree.toString(), "--db", db)).isZero();
        assertThat(out.toString()).contains("a.txt").doesNotContain("node_modules").doesNotContain("b.tmp");
        assertThat(run("scope", "show", "--db", db)).isZero();
        assertThat(out.toString()).contains(tree + ":").contains("exclude node_modules/").contains("exclude *.tmp")
                .contains("one-file-system true");

        assertThat(run("scan", tree.toString(), "--db", db, "--exclude", "*.tmp")).isEqualTo(1);
        assertThat(err.toString()).contains("differ from those stored for " + tree);

        assertThat(run("scope", "set", tree.toString(), "--db", db, "--exclude", "*.txt", "--max-depth", "1"))
                .isZero();
        assertThat(run("scan", tree.toString(), "--db", db)).isZero();
        assertThat(out.toString()).contains("2 added").contains("1 deleted");
        assertThat(run("ls", tree.toString(), "--db", db)).isZero();
        assertThat(out.toString()).contains("node_modules").contains("b.tmp").doesNotContain("a.txt");

        assertThat(run("scope", "clear", tree.toString(), "--db", db)).isZero();
        assertThat(run("scope", "show", tree.toString(), "--db", db)).isEqualTo(1);
        assertThat(err.toString()).contains("no rules stored for " + tree);
    }
}
