package io.fsindex.testservers;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Starting a server whose JDBC driver is missing from the class path fails at once, naming the artifact to add,
 * instead of waiting out the start timeout for a connection that can never be made.
 */
class InnoDbServerDriverTest {
    @ParameterizedTest
    @EnumSource(InnoDbServer.Engine.class)
    void startingWithoutTheDriverNamesTheArtifactToAdd(InnoDbServer.Engine engine, @TempDir Path home)
            throws Exception {
        InnoDbServer server = new InnoDbServer(engine, home, List.of());
        Driver driver = DriverManager.getDriver(server.url(""));
        DriverManager.deregisterDriver(driver);
        try {
            assertThatThrownBy(() -> DriverManager.getDriver(server.url("")))
                    .as("no other driver on the test class path takes %s", server.url(""))
                    .isInstanceOf(SQLException.class);
            assertThatThrownBy(server::start)
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("no JDBC driver for " + server.url(""))
                    .hasMessageContaining(engine.driver);
        } finally {
            DriverManager.registerDriver(driver);
            server.close();
        }
    }
}
