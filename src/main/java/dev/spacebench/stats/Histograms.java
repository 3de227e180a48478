package dev.spacebench.stats;

import java.nio.ByteBuffer;
import java.util.Base64;
import org.HdrHistogram.Histogram;

/**
 * HdrHistogram helpers. Histograms keep 3 significant decimal digits (a value is within 0.1% of
 * what was recorded); published percentiles come from the raw samples, not from here.
 */
public final class Histograms {

    public static final int SIGNIFICANT_DIGITS = 3;

    private Histograms() {}

    /** @param samples durations in ns, each ≥ 0 */
    public static Histogram of(long[] samples) {
        Histogram histogram = new Histogram(SIGNIFICANT_DIGITS);
        for (long s : samples) {
            histogram.recordValue(s);
        }
        return histogram;
    }

    /** The compressed HdrHistogram encoding, base64: what HdrHistogram's own tools read back. */
    public static String encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
    }

    /** @throws IllegalArgumentException if the text is not an encoded histogram */
    public static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (java.util.zip.DataFormatException | RuntimeException e) {
            throw new IllegalArgumentException("not an encoded HdrHistogram: " + e.getMessage(), e);
        }
    }
}
