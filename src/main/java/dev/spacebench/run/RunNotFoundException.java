package dev.spacebench.run;

/** No run has this id; REST answers 404. */
public class RunNotFoundException extends RuntimeException {
    private final long id;

    public RunNotFoundException(long id) {
        super("no run with id " + id);
        this.id = id;
    }

    public long id() {
        return id;
    }
}
