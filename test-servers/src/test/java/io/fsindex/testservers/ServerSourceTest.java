package io.fsindex.testservers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** The choice between Docker and the Maven-artifact servers, for every setting and both answers of the probe. */
class ServerSourceTest {
    private static final BooleanSupplier DOCKER_UP = () -> true;
    private static final BooleanSupplier DOCKER_DOWN = () -> false;

    @Test
    void autoTakesDockerOnlyWhenReachable() {
        for (String auto : new String[] {null, "", "  ", "auto", " AUTO "}) {
            assertThat(ServerSource.choose(auto, DOCKER_UP)).as("'%s', Docker up", auto).isEqualTo(ServerSource.DOCKER);
            assertThat(ServerSource.choose(auto, DOCKER_DOWN)).as("'%s', no Docker", auto)
                    .isEqualTo(ServerSource.ARTIFACTS);
        }
    }

    @Test
    void anExplicitChoiceWinsAndDoesNotProbe() {
        AtomicInteger probes = new AtomicInteger();
        BooleanSupplier counting = () -> probes.incrementAndGet() > 0;
        assertThat(ServerSource.choose("docker", counting)).isEqualTo(ServerSource.DOCKER);
        assertThat(ServerSource.choose("Docker", DOCKER_DOWN)).isEqualTo(ServerSource.DOCKER);
        assertThat(ServerSource.choose("artifacts", counting)).isEqualTo(ServerSource.ARTIFACTS);
        assertThat(ServerSource.choose("ARTIFACTS", DOCKER_UP)).isEqualTo(ServerSource.ARTIFACTS);
        assertThat(probes).hasValue(0);
    }

    @Test
    void anUnknownSettingSaysWhatIsAccepted() {
        assertThatThrownBy(() -> ServerSource.choose("podman", DOCKER_UP))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fsindex.testServers")
                .hasMessageContaining("'podman'")
                .hasMessageContaining("docker").hasMessageContaining("artifacts").hasMessageContaining("auto");
    }

    @Test
    void withoutDockerThisMachineGetsTheArtifacts() {
        // The machines this project's CI runs on have no Docker engine: auto must not pick it there.
        if (System.getProperty(ServerSource.PROPERTY) == null && System.getenv(ServerSource.VARIABLE) == null
                && !ServerSource.DockerProbe.reachable()) {
            assertThat(ServerSource.current()).isEqualTo(ServerSource.ARTIFACTS);
        }
    }
}
