package dev.spacebench.metric;

import java.util.Locale;

/** What a metric times; its {@link #wireName()} is the {@code kind} field of result.json. */
public enum Kind {
    /** A round trip of one exec call into the Space. */
    EXEC,
    /** One file sent into the Space. */
    UPLOAD,
    /** One file fetched back from the Space. */
    DOWNLOAD,
    /** A Space's own lifecycle: ready, delete. */
    SPACE,
    /** The host's floor, measured without a Space. */
    FLOOR;

    /**
     * The kind of a stored id by its namespace alone, so that an id this version does not write
     * (say, from an imported result.json) still falls in its family: {@code exec.*}, {@code file.upload.*},
     * {@code file.download.*}, {@code floor.*}; anything else is {@link #SPACE}. A sweep's id
     * ({@code sweep.4.exec.sh_c}) is of its measured metric's kind, and so is a channel's ({@code via.ssh.exec.true})
     * and a comparison entry's ({@code entry.2.exec.true}).
     */
    public static Kind ofId(String id) {
        if (id == null) {
            return SPACE;
        }
        id = Via.baseId(Sweep.baseId(InEntry.baseId(id)));
        if (id.startsWith(ExecRoundTrip.PREFIX)) {
            return EXEC;
        }
        if (id.startsWith(Transfer.prefix(Transfer.Direction.UPLOAD))) {
            return UPLOAD;
        }
        if (id.startsWith(Transfer.prefix(Transfer.Direction.DOWNLOAD))) {
            return DOWNLOAD;
        }
        return id.startsWith(FloorMetric.PREFIX) ? FLOOR : SPACE;
    }

    /** "exec", "upload", "download", "space" or "floor". */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
