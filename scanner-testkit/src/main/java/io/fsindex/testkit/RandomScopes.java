package io.fsindex.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random trees and random {@code .gitignore} pattern sets over the same few names, so that patterns match often:
 * literals, {@code *}, {@code ?}, classes, {@code **}, anchors, directory-only and negated patterns, escapes and
 * comments.
 */
public final class RandomScopes {
    /** The names trees are built from; ASCII, so git (bytes) and fsindex (characters) must agree on every one. */
    public static final List<String> NAMES = List.of("a", "b", "ab", "ba", "A", "x.txt", "y.log", "B.TXT", "z.tmp",
            "n1", "n2", "[x]", "#h", "!e", "sp ace");
    private static final List<String> SEGMENTS = List.of("a", "b", "ab", "A", "*", "?", "*.txt", "*.TXT", "[ab]",
            "[!a]*", "[a-c]?", "**", "a*", "*b", "\\#h", "\\!e", "\\[x]", "n?", "[[:digit:]]", "*[0-9]", "x.txt",
            "sp ace", "[]a]", "b*/", "[A-Z]*");

    private RandomScopes() {
    }

    /** Paths for {@link Trees#create}: directories end in {@code /}; up to {@code depth} levels. */
    public static List<String> tree(Random random, int entries, int depth) {
        List<String> paths = new ArrayList<>();
        List<String> dirs = new ArrayList<>(List.of(""));
        for (int i = 0; i < entries; i++) {
            String parent = dirs.get(random.nextInt(dirs.size()));
            String name = NAMES.get(random.nextInt(NAMES.size()));
            boolean dir = parent.chars().filter(c -> c == '/').count() + 1 < depth && random.nextInt(3) > 0;
            String path = parent + name;
            if (paths.contains(path) || paths.contains(path + "/") || dirs.contains(path + "/")) {
                continue;
            }
            if (dir) {
                dirs.add(path + "/");
                paths.add(path + "/");
            } else {
                paths.add(path);
            }
        }
        return paths;
    }

    /** Up to {@code count} patterns. */
    public static List<String> patterns(Random random, int count) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int kind = random.nextInt(20);
            if (kind == 0) {
                out.add("# a comment");
                continue;
            }
            if (kind == 1) {
                out.add("");
                continue;
            }
            StringBuilder p = new StringBuilder();
            if (random.nextInt(4) == 0) {
                p.append('!');
            }
            if (random.nextInt(5) == 0) {
                p.append('/');
            }
            int segments = 1 + (random.nextInt(3) == 0 ? 1 + random.nextInt(2) : 0);
            for (int s = 0; s < segments; s++) {
                if (s > 0) {
                    p.append('/');
                }
                String seg = SEGMENTS.get(random.nextInt(SEGMENTS.size()));
                p.append(seg.endsWith("/") ? seg.substring(0, seg.length() - 1) : seg);
            }
            if (random.nextInt(4) == 0) {
                p.append('/');
            }
            if (random.nextInt(10) == 0) {
                p.append("  ");                      // trailing spaces are dropped
            }
            out.add(p.toString());
        }
        return out;
    }
}
