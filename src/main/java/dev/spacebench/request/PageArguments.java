package dev.spacebench.request;

import java.util.ArrayList;
import java.util.List;

/** Checks paging parameters. */
public final class PageArguments {

    /** Highest page number: page × size must stay a valid row offset (an int) for every size. */
    public static final int MAX_PAGE = 1_000_000;
    /** Most rows on one page of a listing, on the runs API and the runs page alike. */
    public static final int MAX_SIZE = 200;

    private PageArguments() {}

    /** @throws InvalidRequestException naming page or size when out of range */
    public static void check(int page, int size, int maxSize) {
        List<FieldError> errors = new ArrayList<>();
        if (page < 0 || page > MAX_PAGE) {
            errors.add(new FieldError("page", "must be from 0 to " + MAX_PAGE + ", was " + page));
        }
        if (size < 1 || size > maxSize) {
            errors.add(new FieldError("size", "must be from 1 to " + maxSize + ", was " + size));
        }
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
    }
}
