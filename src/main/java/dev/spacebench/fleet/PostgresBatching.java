package dev.spacebench.fleet;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * How this app's connections to a PostgreSQL shared by a fleet behave; other databases are left
 * alone, and a URL that sets a property itself keeps its value.
 * <ul>
 * <li>{@code reWriteBatchedInserts=true}: Hibernate sends a run's samples in batches of 500
 * ({@code hibernate.jdbc.batch_size}), which the driver would otherwise send as 500 statements.
 * <li>{@code idle_in_transaction_session_timeout} of twice the worker's lease: a worker frozen
 * inside a transaction (a paused VM, SIGSTOP) holds its run's row lock, and the other apps'
 * lease check would wait on that lock for as long as the freeze lasts. PostgreSQL ends such a
 * session after the timeout, its locks go, and the run is marked INTERRUPTED.
 * </ul>
 */
@Component
public class PostgresBatching implements BeanPostProcessor, EnvironmentAware {

    static final String PROPERTY = "reWriteBatchedInserts";
    static final String OPTIONS = "options";

    private Duration lease = Duration.ofSeconds(30);

    @Override
    public void setEnvironment(Environment environment) {
        lease = Binder.get(environment).bind("spacebench.worker.lease", Duration.class).orElse(lease);
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof HikariDataSource hikari && hikari.getJdbcUrl() != null
                && hikari.getJdbcUrl().startsWith("jdbc:postgresql:")) {
            if (!hikari.getJdbcUrl().contains(PROPERTY) && !hikari.getDataSourceProperties().containsKey(PROPERTY)) {
                hikari.addDataSourceProperty(PROPERTY, "true");
            }
            if (!hikari.getJdbcUrl().contains(OPTIONS + "=") && !hikari.getDataSourceProperties().containsKey(OPTIONS)) {
                hikari.addDataSourceProperty(OPTIONS, "-c idle_in_transaction_session_timeout=" + lease.multipliedBy(2).toMillis());
            }
        }
        return bean;
    }
}
