package io.fsindex.sample;

import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import io.fsindex.spring.FsIndexHealthIndicator;
import java.nio.file.Path;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/** Scans {@code sample.root} once the application has started, with the {@link FsIndex} bean the starter made. */
@Component
class IndexOnStartup implements ApplicationRunner {
    private final FsIndex index;
    private final FsIndexHealthIndicator health;
    private final String root;

    IndexOnStartup(FsIndex index, FsIndexHealthIndicator health, @Value("${sample.root:}") String root) {
        this.index = index;
        this.health = health;
        this.root = root;
    }

    @Override
    public void run(ApplicationArguments args) {
        if (root.isBlank()) {
            System.out.println("nothing to scan: start with --sample.root=DIRECTORY");
        } else {
            ScanResult result = index.scan(Path.of(root));
            System.out.printf("scanned %s: %d added, %d modified, %d moved, %d deleted%n", root, result.added(),
                    result.modified(), result.moved(), result.deleted());
        }
        System.out.println("fsindex health: " + health.health());
    }
}
