package io.fsindex.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.DirectoryListing;
import io.fsindex.api.FileStat;
import io.fsindex.api.Walker;
import io.fsindex.core.NioWalker;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** The NIO walker, stopping once at an exact point of a scan until the test lets it go on. */
final class PausingWalker implements Walker {
    private final Walker nio = new NioWalker();
    private final Path listedDirectory;
    private final CountDownLatch reached = new CountDownLatch(1);
    private final CountDownLatch resume = new CountDownLatch(1);
    private final AtomicBoolean paused = new AtomicBoolean();

    private PausingWalker(Path listedDirectory) {
        this.listedDirectory = listedDirectory;
    }

    /** Pauses in the scan's first stat, before it has touched the database for its trunk and root. */
    static PausingWalker beforeTheTrunk() {
        return new PausingWalker(null);
    }

    /** Pauses once {@code dir} has been listed, before the listing is applied to the database. */
    static PausingWalker afterListing(Path dir) {
        return new PausingWalker(dir);
    }

    void awaitPause() throws InterruptedException {
        assertThat(reached.await(60, TimeUnit.SECONDS)).as("the scan reached its pause point").isTrue();
    }

    void resume() {
        resume.countDown();
    }

    @Override
    public FileStat stat(Path path) throws IOException {
        if (listedDirectory == null) {
            pauseOnce();
        }
        return nio.stat(path);
    }

    @Override
    public FileStat statFollowingLinks(Path path) throws IOException {
        return nio.statFollowingLinks(path);
    }

    @Override
    public DirectoryListing list(Path directory) throws IOException {
        DirectoryListing listing = nio.list(directory);
        if (directory.equals(listedDirectory)) {
            pauseOnce();
        }
        return listing;
    }

    private void pauseOnce() {
        if (paused.compareAndSet(false, true)) {
            reached.countDown();
            try {
                resume.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
