package dev.spacebench.database;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.SQLExceptionOverride;
import java.sql.SQLException;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.stereotype.Component;

/**
 * Has the connection pool drop a connection whose database H2 closed (error 90098, or a write that
 * found the disk full): H2's {@code isValid} still says yes for it, so the pool would otherwise hand
 * it out for ever, and the database would stay closed although its disk has room again.
 */
@Component
public class ClosedDatabaseEviction implements BeanPostProcessor {

    @Override
    public Object postProcessBeforeInitialization(Object bean, String beanName) {
        if (bean instanceof HikariDataSource pool && pool.getExceptionOverride() == null && pool.getExceptionOverrideClassName() == null) {
            pool.setExceptionOverride(new EvictClosed());
        }
        return bean;
    }

    /** Not a lambda: the interface has only a default method. */
    static final class EvictClosed implements SQLExceptionOverride {
        // No @Override: inside this class the name is SQLExceptionOverride.Override, the enum.
        public SQLExceptionOverride.Override adjudicate(SQLException e) {
            return e.getErrorCode() == DatabaseDisk.H2_DATABASE_CLOSED || DatabaseDisk.isDiskFull(e)
                    ? SQLExceptionOverride.Override.MUST_EVICT : SQLExceptionOverride.Override.CONTINUE_EVICT;
        }
    }
}
