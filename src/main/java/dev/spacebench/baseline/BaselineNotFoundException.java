package dev.spacebench.baseline;

/** No baseline has this name; REST answers 404 naming the field. */
public class BaselineNotFoundException extends RuntimeException {
    private final String field;

    public BaselineNotFoundException(String field, String name) {
        super("no baseline named " + dev.spacebench.plan.Shown.quote(name) + "; GET /api/baselines lists them");
        this.field = field;
    }

    public String field() {
        return field;
    }
}
