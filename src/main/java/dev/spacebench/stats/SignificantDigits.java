package dev.spacebench.stats;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/** Numbers written with three significant digits, as every page and export shows figures. */
public final class SignificantDigits {

    private SignificantDigits() {}

    /** 2.8912 → "2.89", 0.21549 → "0.215", 1234.5 → "1230"; 0 → "0"; NaN and infinities as Java writes them. */
    public static String three(double value) {
        if (value == 0 || Double.isNaN(value) || Double.isInfinite(value)) {
            return value == 0 ? "0" : Double.toString(value);
        }
        BigDecimal rounded = new BigDecimal(value).round(new MathContext(3, RoundingMode.HALF_EVEN));
        int integerDigits = rounded.precision() - rounded.scale();
        return rounded.setScale(Math.max(0, 3 - integerDigits), RoundingMode.HALF_EVEN).toPlainString();
    }
}
