package dev.spacebench.run;

/** No run has this id; REST answers 404 naming {@link #field()}. */
public class RunNotFoundException extends RuntimeException {
    private final long id;
    private final String field;

    public RunNotFoundException(long id) {
        this(id, "id");
    }

    /** @param field the request's parameter that named the run, e.g. {@code run} on /api/compare */
    public RunNotFoundException(long id, String field) {
        super("no run with id " + id);
        this.id = id;
        this.field = field;
    }

    public long id() {
        return id;
    }

    public String field() {
        return field;
    }
}
