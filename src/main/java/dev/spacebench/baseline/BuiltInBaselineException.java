package dev.spacebench.baseline;

/** A built-in baseline (published figures shipped with the app) cannot be deleted: answered 409. */
public class BuiltInBaselineException extends RuntimeException {

    public BuiltInBaselineException(String name) {
        super("baseline '" + name + "' is built in (published figures that ship with the app, put in by its database migrations): "
                + "it cannot be deleted, as nothing would bring it back and 'bench --baseline " + name + "' names it");
    }
}
