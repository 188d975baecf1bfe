package io.fsindex.core.scope;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One {@code .gitignore} line, compiled: whether it re-includes, applies to directories only, matches the name or the
 * path below the root, and how. Follows git's {@code dir.c} and {@code wildmatch.c}: a pattern without a slash (but
 * a trailing one) matches the name at any depth, any other the whole path from the root; {@code *} and {@code ?} and
 * classes never match a slash; {@code **} between slashes (or at either end) matches any number of directories; a
 * class that is never closed makes the pattern match nothing. Names are matched as Java characters, so {@code ?}
 * matches one character where git matches one byte; the two agree on ASCII names.
 */
final class IgnorePattern {
    final boolean negated;
    final boolean directoryOnly;
    /** Matched against the name alone (the pattern had no slash but a trailing one); else against the path. */
    final boolean nameOnly;
    /** The literal name the pattern matches, when it has no wildcard: compared without a regular expression. */
    private final String literal;
    /** The suffix a {@code *suffix} name pattern matches (the common {@code *.ext}), compared without one too. */
    private final String suffix;
    private final Pattern regex;
    private final boolean ignoreCase;

    private IgnorePattern(boolean negated, boolean directoryOnly, boolean nameOnly, String literal, String suffix,
                          Pattern regex, boolean ignoreCase) {
        this.negated = negated;
        this.directoryOnly = directoryOnly;
        this.nameOnly = nameOnly;
        this.literal = literal;
        this.suffix = suffix;
        this.regex = regex;
        this.ignoreCase = ignoreCase;
    }

    /** Compiles one line; null for a blank line or a comment, which match nothing. */
    static IgnorePattern compile(String line, boolean ignoreCase) {
        String p = trimTrailingSpaces(line);
        if (p.isEmpty() || p.startsWith("#")) {
            return null;
        }
        boolean negated = p.startsWith("!");
        if (negated) {
            p = p.substring(1);
        }
        boolean directoryOnly = false;
        if (p.endsWith("/") && !p.endsWith("\\/")) {
            directoryOnly = true;
            p = p.substring(0, p.length() - 1);
        }
        if (p.isEmpty()) {
            return null;
        }
        boolean nameOnly = p.indexOf('/') < 0;
        if (!nameOnly && p.startsWith("/")) {
            p = p.substring(1);
        }
        String literal = null;
        String suffix = null;
        if (nameOnly && !hasWildcard(p, 0)) {
            literal = p;
        } else if (nameOnly && p.startsWith("*") && !hasWildcard(p, 1)) {
            suffix = p.substring(1);
        }
        Pattern regex = literal == null && suffix == null ? toRegex(p, ignoreCase) : null;
        return new IgnorePattern(negated, directoryOnly, nameOnly, literal, suffix, regex, ignoreCase);
    }

    /** True if this line matches the entry ({@code path} relative to the root, {@code name} its last part). */
    boolean matches(String path, String name, boolean directory) {
        if (directoryOnly && !directory) {
            return false;
        }
        if (literal != null) {
            return ignoreCase ? literal.equalsIgnoreCase(name) && asciiFold(literal, name) : literal.equals(name);
        }
        if (suffix != null) {
            int from = name.length() - suffix.length();
            return from >= 0 && name.regionMatches(ignoreCase, from, suffix, 0, suffix.length())
                    && (!ignoreCase || asciiFold(suffix, name.substring(from)));
        }
        return regex.matcher(nameOnly ? name : path).matches();
    }

    /** Git folds ASCII letters only: {@code equalsIgnoreCase} also folds others, which must then be equal. */
    private static boolean asciiFold(String a, String b) {
        for (int i = 0; i < a.length(); i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y && (x > 127 || y > 127)) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasWildcard(String p, int from) {
        for (int i = from; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '*' || c == '?' || c == '[' || c == '\\') {
                return true;
            }
        }
        return false;
    }

    /** Git drops trailing spaces unless a backslash quotes them. */
    private static String trimTrailingSpaces(String line) {
        int end = line.length();
        while (end > 0 && line.charAt(end - 1) == ' ') {
            int backslashes = 0;
            for (int i = end - 2; i >= 0 && line.charAt(i) == '\\'; i--) {
                backslashes++;
            }
            if (backslashes % 2 == 1) {
                break;
            }
            end--;
        }
        return line.substring(0, end);
    }

    private static final Pattern NOTHING = Pattern.compile("(?!)");

    /** Translates a wildmatch pattern (with git's {@code WM_PATHNAME}) into a regular expression. */
    static Pattern toRegex(String p, boolean ignoreCase) {
        StringBuilder re = new StringBuilder();
        int n = p.length();
        for (int i = 0; i < n; i++) {
            char c = p.charAt(i);
            switch (c) {
                case '*' -> {
                    int stars = i;
                    while (i + 1 < n && p.charAt(i + 1) == '*') {
                        i++;
                    }
                    boolean twoOrMore = i > stars;
                    boolean atStartOfPart = stars == 0 || p.charAt(stars - 1) == '/';
                    boolean atEndOfPart = i + 1 == n || p.charAt(i + 1) == '/';
                    if (twoOrMore && atStartOfPart && atEndOfPart) {
                        if (i + 1 == n) {
                            re.append(".*");                       // trailing **: everything below
                        } else {
                            re.append("(?:.*/)?");                 // **/: any number of directories, even none
                            i++;                                   // the slash is part of it
                        }
                    } else {
                        re.append("[^/]*");
                    }
                }
                case '?' -> re.append("[^/]");
                case '[' -> {
                    int end = classEnd(p, i);
                    if (end < 0) {
                        return NOTHING;                            // git aborts the match: the line matches nothing
                    }
                    re.append(toClass(p.substring(i + 1, end)));
                    i = end;
                }
                case '\\' -> {
                    if (i + 1 == n) {
                        return NOTHING;                            // a trailing backslash quotes nothing
                    }
                    re.append(Pattern.quote(String.valueOf(p.charAt(++i))));
                }
                default -> re.append(quote(c));
            }
        }
        return Pattern.compile(re.toString(), ignoreCase ? Pattern.CASE_INSENSITIVE : 0);
    }

    /** The index of the {@code ]} closing the class opened at {@code open}, or -1. */
    private static int classEnd(String p, int open) {
        int i = open + 1;
        if (i < p.length() && (p.charAt(i) == '!' || p.charAt(i) == '^')) {
            i++;
        }
        if (i < p.length() && p.charAt(i) == ']') {
            i++;                                                   // a ] first is a member
        }
        for (; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '[' && i + 1 < p.length() && p.charAt(i + 1) == ':') {
                int close = p.indexOf(":]", i + 2);
                if (close > 0) {
                    i = close + 1;
                }
            } else if (c == ']') {
                return i;
            }
        }
        return -1;
    }

    /** A class as a regular expression; neither a class nor its negation ever matches a slash. */
    private static String toClass(String body) {
        boolean negated = !body.isEmpty() && (body.charAt(0) == '!' || body.charAt(0) == '^');
        int i = negated ? 1 : 0;
        StringBuilder members = new StringBuilder();
        while (i < body.length()) {
            char c = body.charAt(i);
            if (c == '[' && i + 1 < body.length() && body.charAt(i + 1) == ':' && body.indexOf(":]", i + 2) > 0) {
                int close = body.indexOf(":]", i + 2);
                members.append(posixClass(body.substring(i + 2, close)));
                i = close + 2;
                continue;
            }
            char from = c;
            if (c == '\\' && i + 1 < body.length()) {
                from = body.charAt(++i);
            }
            i++;
            if (i + 1 < body.length() && body.charAt(i) == '-') {
                char to = body.charAt(i + 1);
                i += 2;
                if (to == '\\' && i < body.length()) {
                    to = body.charAt(i++);
                }
                if (to >= from) {
                    members.append(quote(from)).append('-').append(quote(to));
                }
            } else {
                members.append(quote(from));
            }
        }
        if (members.isEmpty()) {
            return negated ? "[^/]" : "(?!)";
        }
        return "(?!/)[" + (negated ? "^" : "") + members + "]";
    }

    private static String posixClass(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "alnum" -> "a-zA-Z0-9";
            case "alpha" -> "a-zA-Z";
            case "blank" -> " \\t";
            case "cntrl" -> "\\x00-\\x1F\\x7F";
            case "digit" -> "0-9";
            case "graph" -> "\\x21-\\x7E";
            case "lower" -> "a-z";
            case "print" -> "\\x20-\\x7E";
            case "punct" -> "!-/:-@\\[-`{-~";
            case "space" -> " \\t\\n\\r\\x0B\\f";
            case "upper" -> "A-Z";
            case "xdigit" -> "0-9A-Fa-f";
            default -> "";
        };
    }

    private static String quote(char c) {
        return Character.isLetterOrDigit(c) && c < 128 ? String.valueOf(c) : String.format("\\x{%X}", (int) c);
    }
}
