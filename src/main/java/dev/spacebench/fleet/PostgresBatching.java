package dev.spacebench.fleet;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.stereotype.Component;

/**
 * On PostgreSQL, has the driver rewrite a JDBC batch of inserts into multi-row INSERTs
 * ({@code reWriteBatchedInserts=true}): Hibernate sends a run's samples in batches of 500
 * ({@code hibernate.jdbc.batch_size}), which the driver would otherwise send as 500 statements.
 * A URL that sets the property itself keeps its value. Other databases are left alone.
 */
@Component
public class PostgresBatching implements BeanPostProcessor {

    static final String PROPERTY = "reWriteBatchedInserts";

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof HikariDataSource hikari && hikari.getJdbcUrl() != null
                && hikari.getJdbcUrl().startsWith("jdbc:postgresql:") && !hikari.getJdbcUrl().contains(PROPERTY)
                && !hikari.getDataSourceProperties().containsKey(PROPERTY)) {
            hikari.addDataSourceProperty(PROPERTY, "true");
        }
        return bean;
    }
}
