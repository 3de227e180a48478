package dev.spacebench.database;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * {@code /actuator/health} component {@code databaseDisk}: DOWN with {@code reason} while the
 * database's disk is full ({@link DatabaseDisk}), so that the app's health says what its requests meet.
 */
@Component
public class DatabaseDiskHealth implements HealthIndicator {

    private final DatabaseDisk disk;

    public DatabaseDiskHealth(DatabaseDisk disk) {
        this.disk = disk;
    }

    @Override
    public Health health() {
        return disk.problem().map(reason -> Health.down().withDetail("reason", reason).build()).orElseGet(() -> Health.up().build());
    }
}
