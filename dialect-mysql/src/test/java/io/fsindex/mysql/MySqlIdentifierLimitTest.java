package io.fsindex.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.core.SchemaScripts;
import org.junit.jupiter.api.Test;

class MySqlIdentifierLimitTest {
    /**
     * MySQL refuses names over 64 characters; the longest fsindex's script derives from the prefix adds 17
     * ({@code files_hashed_file}, {@code files_fingerprint}), as long as its own {@code change_dirs_chk_1}.
     */
    @Test
    void tablePrefixesOfUpTo47CharactersFitInnoDbNames() {
        assertThat(SchemaScripts.longestTablePrefix("jdbc:mysql://127.0.0.1:1/files")).isEqualTo(47);
    }
}
