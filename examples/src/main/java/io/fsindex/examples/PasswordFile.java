package io.fsindex.examples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * Reads the database password from a file ({@code --password-file}, {@code FSINDEX_PASSWORD_FILE}), so that it never
 * appears on a command line, where {@code ps} shows it to every user of the machine, nor in a shell's history. The
 * file holds the password alone; one trailing line break (as editors and {@code echo} leave) is not part of it.
 */
final class PasswordFile {
    private PasswordFile() {
    }

    /** The password in {@code file}; a usage error naming the file (never its content) if it cannot be read. */
    static String read(Path file, CommandLine cli) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new CommandLine.ParameterException(cli, "cannot read the password file " + CliText.escaped(file)
                    + " (" + e.getClass().getSimpleName() + "); give a readable file holding only the password");
        }
        if (text.endsWith("\r\n")) {
            text = text.substring(0, text.length() - 2);
        } else if (text.endsWith("\n")) {
            text = text.substring(0, text.length() - 1);
        }
        if (text.isEmpty()) {
            throw new CommandLine.ParameterException(cli, "the password file " + CliText.escaped(file) + " is empty");
        }
        return text;
    }
}
