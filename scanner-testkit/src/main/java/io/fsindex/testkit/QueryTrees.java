package io.fsindex.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/** The trees the query suites ask about: names every other suite finds hostile, among random ones. */
final class QueryTrees {
    /** Every character the other suites find hostile: SQL wildcards and escapes, quotes, controls, NFC/NFD, emoji. */
    static final String[] HOSTILE = {"Case.txt", "case.TXT", "percent%.txt", "under_score.txt", "a.txt",
            "back\\slash.txt", "quote'\"`.txt", "tab\tname.txt", "line\nbreak.txt", "caf\u00e9.txt",
            "cafe\u0301.txt", "emoji-\ud83d\ude00.txt", "star*.txt", "q?.txt", "[set].txt", "bang!.txt", "KELVIN\u212a",
            "dotted\u0130", "x"};

    private QueryTrees() {
    }

    /**
     * Directories d0…d4 (some nested) below {@code root}, holding {@code files} files with the hostile names first,
     * then random ones, of random sizes and mtimes, and a dangling link; returns {@code root}.
     */
    static Path random(Path root, Random random, int files) throws IOException {
        Trees.create(root, "d0/", "d1/", "d1/sub/", "d2/", "d3/", "d3/deep/", "d3/deep/er/", "d4/");
        List<Path> dirs = new ArrayList<>();
        try (Stream<Path> all = Files.walk(root)) {
            all.filter(Files::isDirectory).forEach(dirs::add);
        }
        for (int i = 0; i < files; i++) {
            Path dir = dirs.get(random.nextInt(dirs.size()));
            String name = i < HOSTILE.length ? HOSTILE[i] : "f" + i + (random.nextBoolean() ? ".txt" : ".BIN");
            Path file = dir.resolve(name);
            if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            Files.write(file, new byte[random.nextInt(60)]);
            Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2020-01-01T00:00:00Z")
                    .plusSeconds(random.nextInt(365 * 86_400))));
        }
        Files.createSymbolicLink(root.resolve("d2/link.txt"), Path.of("target-of-link"));
        return root;
    }
}
