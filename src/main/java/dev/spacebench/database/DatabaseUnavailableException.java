package dev.spacebench.database;

/** The database cannot take writes now (its disk is full); the message says why, in plain words. Answered 503. */
public class DatabaseUnavailableException extends RuntimeException {

    public DatabaseUnavailableException(String reason) {
        super(reason);
    }
}
