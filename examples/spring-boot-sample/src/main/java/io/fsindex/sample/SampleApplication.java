package io.fsindex.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Indexes the directory {@code sample.root} into the database {@code fsindex.url} when it starts, then prints
 * fsindex's health. Everything about the index comes from the starter; this application only uses the bean:
 * <pre>
 * java -jar fsindex-spring-boot-sample.jar --sample.root=/srv/media --fsindex.url=jdbc:sqlite:media.db
 * </pre>
 */
@SpringBootApplication
public class SampleApplication {

    /**
     * Starts the application.
     *
     * @param args Spring Boot arguments, e.g. {@code --sample.root=/srv/media}
     */
    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}
