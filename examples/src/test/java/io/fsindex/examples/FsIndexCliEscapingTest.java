package io.fsindex.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** File names cannot forge the lines scripts parse, nor reach the terminal as control sequences. */
class FsIndexCliEscapingTest {
    private static final String FORGING = "evil\n99999 DELETED DIRECTORY forged";
    private static final String TERMINAL = "red\033[31m\u009b2J\u007f";
    private static final String QUOTED = "back\\slash\ttab\rcr";

    @TempDir
    Path tmp;
    private Path tree;
    private String db;

    private final CliRun cli = new CliRun();
    private final StringWriter out = cli.out;
    private final StringWriter err = cli.err;

    private int run(String... args) {
        return cli.run(args);
    }

    @BeforeEach
    void hostileTree() throws IOException {
        tree = Files.createDirectories(tmp.resolve("tree\nforged root"));
        for (String name : List.of(FORGING, TERMINAL, QUOTED)) {
            Files.writeString(tree.resolve(name), "x");
        }
        db = "jdbc:sqlite:" + tmp.resolve("cli.db");
    }

    @Test
    void changesPrintsOneEscapedLinePerChange() {
        assertThat(run("scan", tree.toString(), "--db", db)).isZero();
        assertThat(run("changes", "--db", db)).isZero();

        Path real = realTree();
        List<String> lines = out.toString().lines().toList();
        assertThat(lines).hasSize(3 + real.getNameCount() + 1)     // the files, the root and every directory above
                .allMatch(line -> line.matches("\\d+ ADDED (FILE|DIRECTORY) /.*"), "a change line");
        assertThat(lines).noneMatch(line -> line.startsWith("99999"));
        assertThat(out.toString()).contains(" ADDED FILE " + CliText.escaped(real.resolve(FORGING)))
                .contains("evil\\n99999 DELETED DIRECTORY forged")
                .contains("red\\x1b[31m\\u009b2J\\x7f")
                .contains("back\\\\slash\\ttab\\rcr");
        assertNoControlCharacters(out.toString());
    }

    @Test
    void lsAndInfoAndScanPrintEscapedNames() throws IOException {
        assertThat(run("scan", tree.toString(), "--db", db)).isZero();
        assertThat(out.toString().lines()).hasSize(1).allMatch(line -> line.contains("tree\\nforged root"));

        assertThat(run("ls", tree.toString(), "--db", db)).isZero();
        List<String> lines = out.toString().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.stream().map(line -> line.substring(line.lastIndexOf("  ") + 2)))
                .containsExactlyInAnyOrder(CliText.escaped(FORGING), CliText.escaped(TERMINAL),
                        CliText.escaped(QUOTED));
        assertNoControlCharacters(out.toString());

        assertThat(run("info", "--db", db)).isZero();
        assertThat(out.toString()).contains(CliText.escaped(realTree())).doesNotContain("\nforged root");
        assertNoControlCharacters(out.toString());

        assertThat(run("ls", tree.resolve("missing\033[2J").toString(), "--db", db)).isEqualTo(1);
        assertThat(err.toString()).contains("missing\\x1b[2J is not in the index");
        assertNoControlCharacters(err.toString());
    }

    @Test
    void scanErrorsPrintEscapedPaths() throws IOException {
        Files.createSymbolicLink(tree.resolve("loop\n0 ADDED FILE forged"), Path.of("."));
        assertThat(run("scan", tree.toString(), "--db", db, "--follow-symlinks")).isZero();
        assertThat(err.toString()).contains("SYMLINK_LOOP").contains("loop\\n0 ADDED FILE forged");
        assertThat(err.toString().lines()).hasSize(1);
        assertNoControlCharacters(err.toString());
    }

    @Test
    void escapingIsReversible() {
        for (String name : List.of(FORGING, TERMINAL, QUOTED, "plain name", "\\x41 is not A", "caf\u00e9 \u2603",
                "\u0000\u001f\u0080\u009f\u00a0")) {
            String escaped = CliText.escaped(name);
            assertNoControlCharacters(escaped);
            assertThat(unescape(escaped)).isEqualTo(name);
        }
        assertThat(CliText.escaped("plain name")).isEqualTo("plain name");
    }

    private Path realTree() {
        try {
            return tree.toRealPath();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Output may hold newlines between lines, but no other control character (C0, DEL or C1). */
    private static void assertNoControlCharacters(String text) {
        assertThat(text.chars().filter(ch -> ch != '\n' && (ch < 0x20 || (ch >= 0x7f && ch <= 0x9f))))
                .as("control characters in %s", text).isEmpty();
    }

    /** What a script reading the output would do, written from the README's description of the scheme. */
    private static String unescape(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch != '\\') {
                out.append(ch);
                continue;
            }
            char kind = s.charAt(++i);
            switch (kind) {
                case '\\' -> out.append('\\');
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'x' -> {
                    out.append((char) Integer.parseInt(s.substring(i + 1, i + 3), 16));
                    i += 2;
                }
                case 'u' -> {
                    out.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                default -> throw new AssertionError("unknown escape \\" + kind + " in " + s);
            }
        }
        return out.toString();
    }
}
