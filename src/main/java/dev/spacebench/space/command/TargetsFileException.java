package dev.spacebench.space.command;

/**
 * A targets file the app refuses at start: the message names the file, the entry and the field,
 * and says what is allowed. The app does not start with it ({@link TargetsFileAnalyzer} reports it).
 */
public class TargetsFileException extends RuntimeException {

    private final String file;
    private final String entry;
    private final String field;

    public TargetsFileException(String file, String entry, String field, String problem) {
        super("targets file " + file + (entry == null ? "" : ": entry '" + entry + "'") + (field == null ? "" : ", field '" + field + "'")
                + ": " + problem);
        this.file = file;
        this.entry = entry;
        this.field = field;
    }

    public String file() {
        return file;
    }

    /** The target's name; null when the problem is the file's as a whole. */
    public String entry() {
        return entry;
    }

    /** The field in the entry; null when the problem is the entry's or the file's as a whole. */
    public String field() {
        return field;
    }
}
