package dev.spacebench.plan;

/**
 * One file size in a plan and how many transfers (each an upload then a download) to time.
 *
 * @param bytes file size in bytes (1 MiB = 1,048,576)
 * @param n measured iterations at this size
 */
public record FileSize(Long bytes, Integer n) {

    /** "1MiB", "4KiB" or "1000B": the shortest exact binary unit, used in metric ids. */
    public static String label(long bytes) {
        if (bytes >= (1L << 30) && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "GiB";
        }
        if (bytes >= (1L << 20) && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "MiB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return (bytes >> 10) + "KiB";
        }
        return bytes + "B";
    }
}
