package io.fsindex.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The options the relaunched JVM gets: native access for the class path only where the JVM knows the option, so
 * the SQLite driver's library loads without a warning on Java 24 and later and the child still starts on Java 17.
 */
class Utf8RelaunchOptionsTest {
    private static final List<String> PARENT = List.of("-XX:+UseSerialGC", "-Dorg.sqlite.tmpdir=/x");

    @Test
    void java17ChildGetsTheParentsOptionsOnly() {
        assertThat(Utf8Relaunch.childJvmOptions(PARENT, 17)).isEqualTo(PARENT);
        assertThat(Utf8Relaunch.childJvmOptions(PARENT, 21)).isEqualTo(PARENT);
    }

    @Test
    void java22AndLaterChildMayLoadNativeLibrariesFromTheClassPath() {
        assertThat(Utf8Relaunch.childJvmOptions(PARENT, 22))
                .containsExactly("-XX:+UseSerialGC", "-Dorg.sqlite.tmpdir=/x", "--enable-native-access=ALL-UNNAMED");
        assertThat(Utf8Relaunch.childJvmOptions(PARENT, 25)).endsWith("--enable-native-access=ALL-UNNAMED");
    }

    @Test
    void anEnableNativeAccessOptionOfTheUsersIsKeptAsItIs() {
        List<String> own = List.of("--enable-native-access=ALL-UNNAMED,some.module");
        assertThat(Utf8Relaunch.childJvmOptions(own, 25)).isEqualTo(own);
    }
}
