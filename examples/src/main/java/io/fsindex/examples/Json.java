package io.fsindex.examples;

/**
 * JSON text for the {@code --json} output: strings escaped per RFC 8259, with every control character (C0, DEL and
 * C1) as a {@code \}{@code uXXXX} escape so no name can break a line of JSON Lines output or reach the terminal.
 */
final class Json {
    private Json() {
    }

    /** Returns {@code text} as a quoted JSON string, or {@code null} for null. */
    static String string(Object text) {
        if (text == null) {
            return "null";
        }
        String s = String.valueOf(text);
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                default -> {
                    if (ch < 0x20 || ch == 0x7f || (ch >= 0x80 && ch <= 0x9f)) {
                        out.append(String.format("\\u%04x", (int) ch));
                    } else {
                        out.append(ch);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
