package io.fsindex.testservers;

/**
 * How to reach a running test server.
 *
 * @param url      the JDBC URL of a database the tests may create tables in
 * @param user     the user, or {@code null} when the URL carries it
 * @param password the password, or {@code null}
 * @param label    the engine, version and source, for messages
 */
public record JdbcServer(String url, String user, String password, String label) {
}
