package io.fsindex.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fsindex generate-completion}: a script that bash loads and that completes commands and their options. */
class FsIndexCliCompletionTest {
    @TempDir
    Path tmp;

    private final CliRun cli = new CliRun();

    @Test
    void bashCompletesSubcommandsAndTheirOptions() throws Exception {
        assertThat(cli.run("generate-completion")).as(cli.err.toString()).isZero();
        Path script = Files.writeString(tmp.resolve("fsindex.bash"), cli.out.toString());

        assertThat(complete(script, "fsindex", "sca")).containsExactly("scan");
        assertThat(complete(script, "fsindex", "sc")).containsExactly("scan", "scope");
        assertThat(complete(script, "fsindex", "ch")).containsExactly("changes");
        assertThat(complete(script, "fsindex", "changes", "--j")).containsExactly("--json");
        assertThat(complete(script, "fsindex", "info", "--pass")).containsExactly("--password-file");
        assertThat(complete(script, "fsindex", "")).contains("scan", "ls", "info", "gc", "changes", "find", "du",
                "dupes", "watch", "scope");
    }

    @Test
    void theGeneratorIsListedWithTheCommandsAndAnswersHelpAndVersion() {
        assertThat(cli.run("--help")).isZero();
        assertThat(cli.out.toString()).contains("changes").contains("generate-completion");
        assertThat(cli.run("generate-completion", "--help")).isZero();
        assertThat(cli.out.toString()).contains("bash");
        assertThat(cli.run("generate-completion", "--version")).isZero();
        assertThat(cli.out.toString()).startsWith("fsindex ");
    }

    /** What bash, with the script loaded, offers for the last of {@code words}. */
    private static List<String> complete(Path script, String... words) throws Exception {
        StringBuilder array = new StringBuilder();
        for (String w : words) {
            array.append(" '").append(w).append('\'');
        }
        String program = "source '" + script + "'\n"
                + "COMP_WORDS=(" + array + " )\n"
                + "COMP_CWORD=" + (words.length - 1) + "\n"
                + "COMP_LINE=\"${COMP_WORDS[*]}\"\nCOMP_POINT=${#COMP_LINE}\n"
                + "_complete_fsindex fsindex '" + words[words.length - 1] + "' '" + words[words.length - 2] + "'\n"
                + "printf '%s\\n' \"${COMPREPLY[@]}\"\n";
        // stderr aside: outside an interactive completion, bash warns that compopt has nothing to act on
        Process p = new ProcessBuilder("bash", "-c", program).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        return output.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }
}
