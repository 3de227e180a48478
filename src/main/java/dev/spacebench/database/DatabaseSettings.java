package dev.spacebench.database;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * {@code spacebench.database.*}.
 *
 * @param diskReserve room the app keeps beside an H2 database file (a file of this size, {@code disk-reserve},
 *     in the data directory), given back the moment the disk is full so that the run under way can still
 *     record its end; default 8MB, 0 for none
 * @param allowH2Server whether an H2 URL with {@code AUTO_SERVER=TRUE} is accepted (read by
 *     {@code system.H2FilePrivacy}); default false
 */
@ConfigurationProperties("spacebench.database")
public record DatabaseSettings(DataSize diskReserve, Boolean allowH2Server) {

    public DatabaseSettings {
        diskReserve = diskReserve == null ? DataSize.ofMegabytes(8) : diskReserve;
        if (diskReserve.isNegative()) {
            throw new IllegalArgumentException("spacebench.database.disk-reserve must be 0 or more, was " + diskReserve);
        }
        allowH2Server = allowH2Server != null && allowH2Server;
    }
}
