package io.fsindex.spring;

import io.fsindex.core.FsIndex;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Adds the {@code fsindex} health contributor ({@link FsIndexHealthIndicator}) when the application has Spring Boot's
 * actuator and an {@link FsIndex} bean; {@code management.health.fsindex.enabled=false} turns it off.
 */
@AutoConfiguration(after = FsIndexAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
@ConditionalOnBean(FsIndex.class)
@ConditionalOnEnabledHealthIndicator("fsindex")
public class FsIndexHealthAutoConfiguration {

    /**
     * The indicator, named so the health endpoint shows it as {@code fsindex}.
     *
     * @param index the application's index
     * @return the indicator
     */
    @Bean
    @ConditionalOnMissingBean(name = "fsindexHealthIndicator")
    public FsIndexHealthIndicator fsindexHealthIndicator(FsIndex index) {
        return new FsIndexHealthIndicator(index);
    }
}
