package io.fsindex.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code find}, {@code du} and {@code dupes}: what they print, escaped, and as JSON a real JSON parser reads back. */
class FsIndexCliQueryTest {
    @TempDir
    Path tmp;

    private static final ObjectMapper JSON = new ObjectMapper();

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
        assertThat(jsonLines()).singleElement().satisfies(e ->
                assertThat(e.get("path").textValue()).isEqualTo(tree.resolve("small/line\nbreak \"q\".txt").toString()));
    }

    @Test
    void duSumsTheSubtreeAndListsDirectoriesByDepth() throws Exception {
        assertThat(run("du", tree.toString(), "--db", db)).as(err.toString()).isZero();
        assertThat(lines()).containsExactly((40_000 + 1 + 5) + "\t" + tree);

        assertThat(run("du", tree.toString(), "--depth", "2", "--db", db)).isZero();
        assertThat(lines()).containsExactly("20000\t" + tree.resolve("big/inner"), "40000\t" + tree.resolve("big"),
                "6\t" + tree.resolve("small"), "40006\t" + tree);

        assertThat(run("du", tree.toString(), "--json", "--db", db)).isZero();
        JsonNode d = JSON.readTree(out.toString());
        assertThat(List.of(d.get("bytes").longValue(), d.get("files").longValue(), d.get("directories").longValue()))
                .containsExactly(40006L, 4L, 3L);

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
        JsonNode g = JSON.readTree(out.toString());
        assertThat(g.get("wasted").longValue()).isEqualTo(20000);
        assertThat(g.get("paths").size()).isEqualTo(2);
    }

    @Test
    void dupesGroupsFilesScannedWithFingerprintsOnlyByFingerprint() throws Exception {
        Path other = Files.createDirectories(tmp.resolve("other")).toRealPath();
        Files.write(other.resolve("one.bin"), new byte[30_000]);
        Files.write(other.resolve("two.bin"), new byte[30_000]);
        assertThat(run("scan", other.toString(), "--hash", "fingerprint", "--db", db)).as(err.toString()).isZero();

        assertThat(run("dupes", "--db", db)).as(err.toString()).isZero();
        assertThat(lines()).hasSize(6);
        assertThat(lines().get(0)).startsWith("2 copies of 30000 bytes (30000 wasted), fingerprint ")
                .endsWith(" (content not compared)");
        assertThat(lines().subList(1, 3)).containsExactlyInAnyOrder("  " + other.resolve("one.bin"),
                "  " + other.resolve("two.bin"));
        assertThat(lines().get(3)).startsWith("2 copies of 20000 bytes (20000 wasted), sha256 ");

        assertThat(run("dupes", "--json", "--under", other.toString(), "--db", db)).isZero();
        JsonNode g = JSON.readTree(out.toString());
        assertThat(g.get("hash").isNull()).isTrue();
        assertThat(g.get("fingerprint").textValue()).hasSize(64);
        assertThat(g.get("paths").size()).isEqualTo(2);
    }

    @Test
    void lsAndInfoPrintJsonToo() throws Exception {
        assertThat(run("ls", tree.resolve("small").toString(), "--json", "--db", db)).as(err.toString()).isZero();
        assertThat(jsonLines()).extracting(e -> e.get("kind").textValue() + " " + e.get("size").longValue() + " "
                        + e.get("path").textValue())
                .containsExactly("FILE 5 " + tree.resolve("small/Notes.TXT"),
                        "FILE 1 " + tree.resolve("small/line\nbreak \"q\".txt"));

        assertThat(run("info", "--json", "--db", db)).as(err.toString()).isZero();
        JsonNode info = JSON.readTree(out.toString());
        assertThat(info.get("entries").longValue()).isGreaterThan(5);
        assertThat(info.get("recentScans").get(0).get("state").textValue()).isEqualTo("COMPLETED");
        assertThat(info.get("recentScans").get(0).get("root").textValue()).isEqualTo(tree.toString());
    }

    @Test
    void changesJsonIsOneObjectPerChangeWithTheExactPaths() throws Exception {
        Path renamed = tree.resolve("small/renamed \"n\"\n.TXT");
        Files.move(tree.resolve("small/Notes.TXT"), renamed);
        assertThat(run("scan", tree.toString(), "--db", db)).as(err.toString()).isZero();

        assertThat(run("changes", "--json", "--db", db)).as(err.toString()).isZero();
        List<JsonNode> changes = jsonLines();
        assertThat(changes).extracting(c -> c.get("seq").longValue()).isSorted().doesNotHaveDuplicates();
        assertThat(changes).filteredOn(c -> c.get("type").textValue().equals("ADDED"))
                .extracting(c -> c.get("path").textValue())
                .contains(tree.resolve("small/line\nbreak \"q\".txt").toString(), tree.resolve("big/copy.bin").toString());
        List<JsonNode> moves = changes.stream().filter(c -> c.get("type").textValue().equals("MOVED")).toList();
        assertThat(moves).hasSize(1);
        JsonNode move = moves.get(0);
        assertThat(move.get("kind").textValue()).isEqualTo("FILE");
        assertThat(move.get("path").textValue()).isEqualTo(renamed.toString());
        assertThat(move.get("previousPath").textValue()).isEqualTo(tree.resolve("small/Notes.TXT").toString());
        assertThat(move.get("scanId").longValue()).isEqualTo(2);
        assertThat(Instant.parse(move.get("at").textValue())).isBefore(Instant.now().plusSeconds(1));
        assertThat(changes.get(0).get("previousPath").isNull()).isTrue();

        long last = changes.get(changes.size() - 1).get("seq").longValue();
        assertThat(run("changes", "--json", "--since", String.valueOf(last), "--db", db)).isZero();
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).contains("next: --since " + last);
    }

    private List<String> lines() {
        String s = out.toString();
        return s.isEmpty() ? List.of() : List.of(s.split("\n"));
    }

    /** Each line of the output, read back by an independent JSON parser. */
    private List<JsonNode> jsonLines() throws IOException {
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : lines()) {
            nodes.add(JSON.readTree(line));
        }
        return nodes;
    }
}
