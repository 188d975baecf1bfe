package io.fsindex.core;

import io.fsindex.api.FsIndexException;
import io.fsindex.core.spi.Dialect;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** Picks the dialect that serves a JDBC URL from those registered in {@code META-INF/services}. */
final class Dialects {
    private Dialects() {
    }

    static Dialect forUrl(String jdbcUrl) {
        List<Dialect> available = new ArrayList<>();
        ServiceLoader.load(Dialect.class, Dialects.class.getClassLoader()).forEach(available::add);
        Thread current = Thread.currentThread();
        if (current.getContextClassLoader() != null && current.getContextClassLoader() != Dialects.class.getClassLoader()) {
            ServiceLoader.load(Dialect.class, current.getContextClassLoader()).forEach(d -> {
                if (available.stream().noneMatch(a -> a.getClass() == d.getClass())) {
                    available.add(d);
                }
            });
        }
        for (Dialect d : available) {
            if (d.handlesJdbcUrl(jdbcUrl)) {
                return d;
            }
        }
        throw new FsIndexException("no fsindex dialect serves the database at '" + redact(jdbcUrl) + "'; dialects on"
                + " the classpath: " + (available.isEmpty() ? "none" : available.stream()
                .map(d -> d.name() + " (" + d.getClass().getName() + ")").toList())
                + ". Add the module for your database (io.fsindex:dialect-sqlite, dialect-postgres, dialect-mysql or dialect-mariadb)"
                + " or register one with FsIndex.builder().dialect(...)");
    }

    /** Hides a password given inside a JDBC URL, so it never reaches a log. */
    static String redact(String jdbcUrl) {
        return jdbcUrl == null ? null : jdbcUrl.replaceAll("(?i)(password=)[^&;]*", "$1***")
                .replaceAll("//([^:/@]+):[^@/]*@", "//$1:***@");
    }
}
