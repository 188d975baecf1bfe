package io.fsindex.benchmarks;

/**
 * What {@link Startup} times as the floor of a Java program's start: a {@code main} that prints one line and does
 * nothing else, from the same class path as the lookup. Everything the index or the command-line tool takes beyond
 * this is their own.
 */
public final class StartupFloor {
    private StartupFloor() {
    }

    public static void main(String[] args) {
        System.out.println("started");
    }
}
