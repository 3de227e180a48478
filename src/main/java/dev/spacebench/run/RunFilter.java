package dev.spacebench.run;

import dev.spacebench.request.FieldError;
import dev.spacebench.plan.Shown;
import dev.spacebench.request.InvalidRequestException;
import jakarta.persistence.criteria.Predicate;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.springframework.data.jpa.domain.Specification;

/**
 * Which runs a list shows; every part is optional (null: any). Days are UTC calendar days, as
 * pages print dates.
 *
 * @param kind Space kind, exactly as stored (e.g. {@code process})
 * @param status one status
 * @param from first day created, inclusive
 * @param to last day created, inclusive
 * @param testbed the testbed the run asked for or ran on
 */
public record RunFilter(String kind, RunStatus status, LocalDate from, LocalDate to, String testbed) {

    public static final RunFilter ANY = new RunFilter(null, null, null, null, null);

    /** As {@link #parse(Collection, String, String, String, String, String)} without a testbed. */
    public static RunFilter parse(Collection<String> kinds, String kind, String status, String from, String to) {
        return parse(kinds, kind, status, from, to, null);
    }

    /**
     * Reads query parameters as given; blank means not given. Status is case-insensitive, days
     * are {@code yyyy-MM-dd}.
     *
     * @param kinds every known kind: another kind is refused as an unknown status is
     * @param testbed a testbed name ({@link TestbedCheck#NAME})
     * @throws InvalidRequestException naming {@code kind}, {@code status}, {@code from},
     *     {@code to} or {@code testbed} when unreadable, or {@code to} when it is before {@code from}
     */
    public static RunFilter parse(Collection<String> kinds, String kind, String status, String from, String to, String testbed) {
        List<FieldError> errors = new ArrayList<>();
        if (given(kind) && !kinds.contains(kind.strip())) {
            errors.add(new FieldError("kind", "must be one of " + kinds + ", was " + Shown.quote(kind)));
        }
        RunStatus parsedStatus = null;
        if (given(status)) {
            try {
                parsedStatus = RunStatus.valueOf(status.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                errors.add(new FieldError("status", "must be one of " + Arrays.toString(RunStatus.values()) + ", was " + Shown.quote(status)));
            }
        }
        LocalDate fromDay = day("from", from, errors);
        LocalDate toDay = day("to", to, errors);
        if (fromDay != null && toDay != null && toDay.isBefore(fromDay)) {
            errors.add(new FieldError("to", "must be on or after from (" + fromDay + "), was " + toDay));
        }
        if (given(testbed) && !TestbedCheck.NAME.matcher(testbed.strip()).matches()) {
            errors.add(new FieldError("testbed", "must be 1 to 64 letters, digits, '.', '-' or '_', was " + Shown.quote(testbed)));
        }
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
        return new RunFilter(given(kind) ? kind.strip() : null, parsedStatus, fromDay, toDay, given(testbed) ? testbed.strip() : null);
    }

    /** The filter as a query: every given part must hold. */
    Specification<Run> specification() {
        return (root, query, cb) -> {
            List<Predicate> all = new ArrayList<>();
            if (kind != null) {
                all.add(cb.equal(root.get("kind"), kind));
            }
            if (status != null) {
                all.add(cb.equal(root.get("status"), status));
            }
            if (testbed != null) {
                all.add(cb.equal(root.get("testbed"), testbed));
            }
            if (from != null) {
                all.add(cb.greaterThanOrEqualTo(root.get("createdAt"), from.atStartOfDay(ZoneOffset.UTC).toInstant()));
            }
            if (to != null) {
                all.add(cb.lessThan(root.get("createdAt"), to.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant()));
            }
            return cb.and(all.toArray(Predicate[]::new));
        };
    }

    private static LocalDate day(String field, String text, List<FieldError> errors) {
        if (!given(text)) {
            return null;
        }
        try {
            return LocalDate.parse(text.strip());
        } catch (DateTimeParseException e) {
            errors.add(new FieldError(field, "must be a day like 2026-11-30, was " + Shown.quote(text)));
            return null;
        }
    }

    private static boolean given(String text) {
        return text != null && !text.isBlank();
    }
}
