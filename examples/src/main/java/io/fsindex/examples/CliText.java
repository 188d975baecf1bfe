package io.fsindex.examples;

/**
 * How the CLI prints text it did not write itself: file names, paths, link targets, error messages. A file name may
 * hold any byte but {@code /} and NUL, so printed raw a newline in one would forge a second output line for a script
 * reading ours, and an escape sequence would reach the terminal. Everything such text goes through here, in one
 * reversible scheme like GNU {@code ls --quoting-style=escape}: a backslash is doubled, tab, newline and carriage
 * return print as {@code \t}, {@code \n} and {@code \r}, the other ASCII control characters and DEL as {@code \xHH},
 * and the C1 controls (U+0080 to U+009F, which some terminals also obey) as {@code \u0085}-style escapes. All other
 * characters print as they are.
 */
final class CliText {
    private CliText() {
    }

    /** Returns {@code String.valueOf(text)} escaped as the class describes; unchanged if there is nothing to escape. */
    static String escaped(Object text) {
        String s = String.valueOf(text);
        int first = firstToEscape(s);
        if (first < 0) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length() + 16).append(s, 0, first);
        for (int i = first; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '\\' -> out.append("\\\\");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                default -> {
                    if (ch < 0x20 || ch == 0x7f) {
                        out.append(String.format("\\x%02x", (int) ch));
                    } else if (isC1Control(ch)) {
                        out.append(String.format("\\u%04x", (int) ch));
                    } else {
                        out.append(ch);
                    }
                }
            }
        }
        return out.toString();
    }

    private static int firstToEscape(String s) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch < 0x20 || ch == 0x7f || ch == '\\' || isC1Control(ch)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isC1Control(char ch) {
        return ch >= 0x80 && ch <= 0x9f;
    }
}
