package io.fsindex.mariadb;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.core.SchemaScripts;
import org.junit.jupiter.api.Test;

class MariaDbIdentifierLimitTest {
    /**
     * MariaDB refuses names over 64 characters; the longest fsindex's script derives from the prefix adds 17
     * ({@code files_hashed_file}, {@code files_fingerprint}), as long as MySQL's own {@code change_dirs_chk_1}.
     */
    @Test
    void tablePrefixesOfUpTo47CharactersFitInnoDbNames() {
        assertThat(SchemaScripts.longestTablePrefix("jdbc:mariadb://127.0.0.1:1/files")).isEqualTo(47);
    }
}
