package io.fsindex.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code find}, {@code du} and {@code dupes}: what they print, escaped, and as JSON a real JSON parser reads back. */
class FsIndexCliQueryTest {
    @TempDir
    Path tmp;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private Path tree;
    private String db;

    private int run(String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return FsIndexCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @BeforeEach
    void scanATree() throws IOException {
        tree = Files.createDirectories(tmp.resolve("tree")).toRealPath();
        Files.createDirectories(tree.resolve("big/inner"));
        Files.createDirectories(tree.resolve("small"));
        Files.write(tree.resolve("big/inner/data.bin"), new byte[20_000]);
        Files.write(tree.resolve("big/copy.bin"), new byte[20_000]);
        Files.writeString(tree.resolve("small/line\nbreak \"q\".txt"), "x");
        Files.writeString(tree.resolve("small/Notes.TXT"), "notes");
        Files.setLastModifiedTime(tree.resolve("small/Notes.TXT"), FileTime.from(Instant.parse("2001-01-01T00:00:00Z")));
        db = "jdbc:sqlite:" + tmp.resolve("cli.db");
        assertThat(run("scan", tree.toString(), "--hash", "full", "--db", db)).as(err.toString()).isZero();
    }

    @Test
    void findPrintsEscapedPathsAndNarrowsByTypeSizeAndTime() {
        assertThat(run("find", "*.txt", "--db", db)).as(err.toString()).isZero();
        assertThat(lines()).containsExactly(CliText.escaped(tree.resolve("small/line\nbreak \"q\".txt")));

        assertThat(run("find", "notes", "--under", tree.toString(), "--db", db)).isZero();
        assertThat(lines()).containsExactly(tree.resolve("small/Notes.TXT").toString());

        assertThat(run("find", "*", "--type", "d", "--under", tree.toString(), "--db", db)).isZero();
        assertThat(lines()).containsExactlyInAnyOrder(tree.resolve("big").toString(),
                tree.resolve("big/inner").toString(), tree.resolve("small").toString());

        assertThat(run("find", "*", "--type", "f", "--size", "+10k", "--db", db)).isZero();
        assertThat(lines()).containsExactlyInAnyOrder(tree.resolve("big/inner/data.bin").toString(),
                tree.resolve("big/copy.bin").toString());

        assertThat(run("find", "*", "--type", "f", "--newer", "2020-01-01", "--size", "-10k", "--db", db)).isZero();
        assertThat(lines()).containsExactly(CliText.escaped(tree.resolve("small/line\nbreak \"q\".txt")));

        assertThat(run("find", "x", "--size", "ten", "--db", db)).isEqualTo(2);
        assertThat(err.toString()).contains("not a size");
    }

    @Test
    void findJsonIsJsonWithTheExactPath() throws Exception {
        assertThat(run("find", "*break*", "--json", "--db", db)).isZero();
        assertThat(python("import json,sys\nfor l in sys.stdin.read().splitlines(): print(json.loads(l)['path'])",
                out.toString())).isEqualTo(tree.resolve("small/line\nbreak \"q\".txt") + "\n");
    }

    @Test
    void duSumsTheSubtreeAndListsDirectoriesByDepth() throws Exception {
        assertThat(run("du", tree.toString(), "--db", db)).as(err.toString()).isZero();
        assertThat(lines()).containsExactly((40_000 + 1 + 5) + "\t" + tree);

        assertThat(run("du", tree.toString(), "--depth", "2", "--db", db)).isZero();
        assertThat(lines()).containsExactly("20000\t" + tree.resolve("big/inner"), "40000\t" + tree.resolve("big"),
                "6\t" + tree.resolve("small"), "40006\t" + tree);

        assertThat(run("du", tree.toString(), "--json", "--db", db)).isZero();
        assertThat(python("import json,sys\nd=json.loads(sys.stdin.read())\n"
                + "print(d['bytes'], d['files'], d['directories'])", out.toString())).isEqualTo("40006 4 3\n");

        assertThat(run("du", tree.resolve("nope").toString(), "--db", db)).isEqualTo(1);
        assertThat(err.toString()).contains("not a directory in the index");
    }

    @Test
    void dupesPrintsGroupsLargestWasteFirst() throws Exception {
        assertThat(run("dupes", "--db", db)).as(err.toString()).isZero();
        assertThat(lines()).hasSize(3);
        assertThat(lines().get(0)).startsWith("2 copies of 20000 bytes (20000 wasted), sha256 ");
        assertThat(lines().subList(1, 3)).containsExactlyInAnyOrder("  " + tree.resolve("big/copy.bin"),
                "  " + tree.resolve("big/inner/data.bin"));

        assertThat(run("dupes", "--under", tree.resolve("small").toString(), "--db", db)).isZero();
        assertThat(out.toString()).isEmpty();

        assertThat(run("dupes", "--json", "--db", db)).isZero();
        assertThat(python("import json,sys\ng=json.loads(sys.stdin.read())\nprint(g['wasted'], len(g['paths']))",
                out.toString())).isEqualTo("20000 2\n");
    }

    @Test
    void lsAndInfoPrintJsonToo() throws Exception {
        assertThat(run("ls", tree.resolve("small").toString(), "--json", "--db", db)).as(err.toString()).isZero();
        assertThat(python("import json,sys\nfor l in sys.stdin.read().splitlines():\n"
                + "  e=json.loads(l); print(e['kind'], e['size'], e['path'].replace('\\n', '<NL>'))", out.toString()))
                .isEqualTo("FILE 5 " + tree.resolve("small/Notes.TXT") + "\nFILE 1 "
                        + tree.resolve("small/line<NL>break \"q\".txt") + "\n");

        assertThat(run("info", "--json", "--db", db)).as(err.toString()).isZero();
        assertThat(python("import json,sys\nd=json.loads(sys.stdin.read())\n"
                + "print(d['entries'] > 5, d['recentScans'][0]['state'], d['recentScans'][0]['root'])", out.toString()))
                .isEqualTo("True COMPLETED " + tree + "\n");
    }

    private List<String> lines() {
        String s = out.toString();
        return s.isEmpty() ? List.of() : List.of(s.split("\n"));
    }

    /** Runs a Python script on {@code input}: an independent JSON parser to read the output back. */
    private static String python(String script, String input) throws Exception {
        Process p = new ProcessBuilder("python3", "-c", script).redirectErrorStream(true).start();
        p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(output).isZero();
        return output;
    }
}
