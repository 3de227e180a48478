package dev.spacebench.driver;

import java.util.BitSet;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code spacebench.driver.*}.
 *
 * @param cpus the CPUs the measuring driver runs on, as {@code taskset -c} takes them ({@code 1},
 *     {@code 0,2}, {@code 2-3}), each one of this host's ({@code 0} to CPUs − 1); blank (the default):
 *     not pinned. The page's environment says which.
 * @throws IllegalArgumentException naming the property, the value and the allowed range when it is
 *     not such a list (the app then does not start)
 */
@ConfigurationProperties("spacebench.driver")
public record DriverSettings(String cpus) {

    public DriverSettings {
        cpus = cpus == null || cpus.isBlank() ? null : cpus.strip();
        if (cpus != null) {
            parse(cpus, Runtime.getRuntime().availableProcessors());
        }
    }

    /**
     * The CPUs of a list such as {@code 0,2-3}.
     *
     * @throws IllegalArgumentException when it is not such a list of CPUs 0 to {@code hostCpus} − 1
     */
    static BitSet parse(String list, int hostCpus) {
        BitSet cpus = new BitSet();
        for (String part : list.split(",", -1)) {
            String[] range = part.strip().split("-", -1);
            try {
                int from = Integer.parseInt(range[0].strip());
                int to = range.length == 2 ? Integer.parseInt(range[1].strip()) : from;
                if (range.length > 2 || from < 0 || to < from || to >= hostCpus) {
                    throw new NumberFormatException();
                }
                cpus.set(from, to + 1);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("spacebench.driver.cpus must be a list of this host's CPUs, 0 to " + (hostCpus - 1)
                        + ", such as 1 or 0,2-3 (blank: not pinned); was '" + list + "'");
            }
        }
        return cpus;
    }
}
