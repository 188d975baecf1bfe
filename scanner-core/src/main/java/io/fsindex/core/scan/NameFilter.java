package io.fsindex.core.scan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A name glob and a case-insensitive substring, matched exactly in Java, plus the literal runs of them that SQL can
 * narrow the candidates by. SQL only narrows: its patterns are built from characters that mean nothing to LIKE and
 * that every engine lower-cases the same way, so no wildcard of the user's pattern reaches SQL and no engine's
 * collation or case mapping can decide a result.
 */
public final class NameFilter {
    private final Pattern glob;
    private final String containsLower;
    /** LIKE patterns over the lower-cased name, each a superset of the names the filter accepts. */
    private final List<String> sqlLikes = new ArrayList<>();

    public NameFilter(String nameGlob, String nameContains) {
        this.glob = nameGlob == null ? null : Pattern.compile(globToRegex(nameGlob), Pattern.DOTALL);
        this.containsLower = nameContains == null ? null : nameContains.toLowerCase(Locale.ROOT);
        if (nameGlob != null) {
            longestRun(globLiterals(nameGlob), true).ifPresent(run -> sqlLikes.add("%" + run + "%"));
        }
        if (containsLower != null) {
            // Java lower-cases U+0130 and the Kelvin sign to ASCII 'i' and 'k'; an engine's LOWER may not, so a
            // run holding them could drop names this filter accepts.
            longestRun(List.of(containsLower), false).ifPresent(run -> sqlLikes.add("%" + run + "%"));
        }
    }

    boolean isEmpty() {
        return glob == null && containsLower == null;
    }

    public boolean matches(String name) {
        return (glob == null || glob.matcher(name).matches())
                && (containsLower == null || name.toLowerCase(Locale.ROOT).contains(containsLower));
    }

    public List<String> sqlLikes() {
        return sqlLikes;
    }

    /** The longest run of characters that are plain in LIKE and lower-case alike everywhere, lower-cased. */
    private static java.util.Optional<String> longestRun(List<String> literals, boolean caseSensitive) {
        String best = "";
        for (String literal : literals) {
            StringBuilder run = new StringBuilder();
            for (int i = 0; i <= literal.length(); i++) {
                char c = i < literal.length() ? literal.charAt(i) : '\0';
                if (i < literal.length() && plain(c, caseSensitive)) {
                    run.append(Character.toLowerCase(c));
                } else {
                    if (run.length() > best.length()) {
                        best = run.toString();
                    }
                    run.setLength(0);
                }
            }
        }
        return best.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(best);
    }

    private static boolean plain(char c, boolean caseSensitive) {
        if (c >= '0' && c <= '9' || c == '.' || c == '-' || c == ' ' || c == '+' || c == ',' || c == '=') {
            return true;
        }
        char lower = Character.toLowerCase(c);
        if (lower < 'a' || lower > 'z' || c > 'z') {
            return false;
        }
        return caseSensitive || (lower != 'i' && lower != 'k');
    }

    /** The literal stretches of a glob, between its wildcards and sets. */
    private static List<String> globLiterals(String glob) {
        List<String> out = new ArrayList<>();
        StringBuilder lit = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '\\' && i + 1 < glob.length()) {
                lit.append(glob.charAt(++i));
            } else if (c == '*' || c == '?' || c == '[') {
                out.add(lit.toString());
                lit.setLength(0);
                if (c == '[') {
                    i = setEnd(glob, i);
                }
            } else {
                lit.append(c);
            }
        }
        out.add(lit.toString());
        return out;
    }

    /** The index of the {@code ]} closing the set opened at {@code open}, or {@code open} if none (a literal [). */
    private static int setEnd(String glob, int open) {
        int i = open + 1;
        if (i < glob.length() && glob.charAt(i) == '!') {
            i++;
        }
        if (i < glob.length() && glob.charAt(i) == ']') {
            i++;
        }
        int close = glob.indexOf(']', i);
        return close < 0 ? open : close;
    }

    static String globToRegex(String glob) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '\\' && i + 1 < glob.length()) {
                int cp = glob.codePointAt(i + 1);
                re.append(Pattern.quote(new String(Character.toChars(cp))));
                i += Character.charCount(cp);
            } else if (c == '*') {
                re.append(".*");
            } else if (c == '?') {
                re.append('.');
            } else if (c == '[' && setEnd(glob, i) != i) {
                int close = setEnd(glob, i);
                String body = glob.substring(i + 1, close);
                boolean negated = body.startsWith("!");
                if (negated) {
                    body = body.substring(1);
                }
                re.append(negated ? "[^" : "[");
                for (int j = 0; j < body.length(); ) {
                    int cp = body.codePointAt(j);
                    if (cp == '-' && j > 0 && j + 1 < body.length()) {
                        re.append('-');
                    } else {
                        re.append("\\x{").append(Integer.toHexString(cp)).append('}');
                    }
                    j += Character.charCount(cp);
                }
                re.append(']');
                i = close;
            } else {
                int cp = glob.codePointAt(i);
                re.append(Pattern.quote(new String(Character.toChars(cp))));
                i += Character.charCount(cp) - 1;
            }
        }
        return re.toString();
    }
}
