package io.fsindex.spring;

import io.fsindex.api.FsIndexConfigurationException;
import io.fsindex.core.FsIndex;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Opens an {@link FsIndex} bean from the {@code fsindex.*} properties ({@link FsIndexProperties}) and closes it when
 * the context shuts down. Its database is {@code fsindex.url} when that is set (fsindex then opens and closes a pool
 * of its own), and otherwise the application's {@link DataSource} bean (the primary one if there are several), which
 * fsindex uses as it is and never closes. The scan rules of {@code fsindex.scopes} are stored as it opens, and the
 * trees of {@code fsindex.watch.roots} are watched while the context runs ({@link FsIndexWatches}). An application
 * that defines its own {@code FsIndex} bean keeps it: this configuration then backs off.
 */
@AutoConfiguration(afterName = "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration")
@EnableConfigurationProperties(FsIndexProperties.class)
public class FsIndexAutoConfiguration {

    /**
     * The index, opened (and its schema created, upgraded or checked) as the context starts.
     *
     * @param properties  the {@code fsindex.*} settings
     * @param dataSources the application's data source, used when {@code fsindex.url} is not set
     * @return the open index
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public FsIndex fsIndex(FsIndexProperties properties, ObjectProvider<DataSource> dataSources) {
        FsIndex.Builder builder = FsIndex.builder().properties(properties.toProperties());
        if (properties.getUrl() == null) {
            DataSource dataSource = dataSources.getIfUnique();
            if (dataSource == null) {
                throw new FsIndexConfigurationException("fsindex has no database: set fsindex.url to a JDBC URL"
                        + " such as jdbc:sqlite:index.db, or define a DataSource bean (one, or one marked @Primary)"
                        + " for fsindex to use");
            }
            builder.dataSource(dataSource);
        }
        FsIndex index = builder.build();
        try {
            for (FsIndexScopeProperties scope : properties.getScopes()) {
                if (scope.getRoot() == null) {
                    throw new FsIndexConfigurationException("fsindex.scopes: every entry needs a root"
                            + " (fsindex.scopes[N].root=/path), the directory its rules are for");
                }
                index.setScope(scope.getRoot(), scope.toScanScope());
            }
        } catch (RuntimeException e) {
            index.close();
            throw e;
        }
        return index;
    }

    /**
     * The watches of {@code fsindex.watch.roots}, started once the index is open (each scans its root first) and
     * closed before it.
     *
     * @param index      the index to keep current
     * @param properties the {@code fsindex.watch.*} settings
     * @return the running watches, none if no root is configured
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public FsIndexWatches fsIndexWatches(FsIndex index, FsIndexProperties properties) {
        return FsIndexWatches.start(index, properties.getWatch());
    }
}
