"""Independent check of a paired ratio with its CI (stats/PairedRatio.java), by inverting SciPy's
Wilcoxon signed-rank test instead of reading ranks off a table.

    python3 paired_ratio.py blocks.json METHOD

blocks.json: {"a": [[ns, ...], ...], "b": [[ns, ...], ...], "level": 0.95}; METHOD "exact" or
"approx". Block medians are nearest rank (the ceil(n/2)-th smallest). d_i = ln(med a_i / med b_i).
The estimate is exp of the median of the Walsh averages (numpy), and the interval is every shift
theta at which scipy.stats.wilcoxon(d - theta, two-sided, METHOD, continuity correction for approx)
gives p > 1 - level: theta is tried between consecutive sorted Walsh averages (where T+ is
constant), and the accepted stretch is found by bisection on each side of the centre. Prints
"ratio lower upper" (lower 0 and upper inf when no theta is rejected on that side).
"""
import json
import math
import sys

import numpy as np
from scipy.stats import wilcoxon


def median(block):
    s = sorted(block)
    return s[math.ceil(len(s) / 2) - 1]


def interval(d, level, method):
    """(ratio, lower, upper) for log-ratios d: exp of the Walsh-average median and of the ends of
    the interval that inverts scipy.stats.wilcoxon (as this file's docstring says)."""
    alpha = 1 - level
    d = np.array(d, dtype=float)
    walsh = np.sort(np.array([(d[i] + d[j]) / 2 for i in range(len(d)) for j in range(i, len(d))]))
    m = len(walsh)

    def accepted(j):
        # theta between walsh[j-1] and walsh[j] (1-based j: just above the j-th smallest)
        lo = walsh[j - 1] if j >= 1 else walsh[0] - 1
        hi = walsh[j] if j < m else walsh[-1] + 1
        theta = (lo + hi) / 2
        kw = {"correction": True} if method == "approx" else {}
        return wilcoxon(d - theta, alternative="two-sided", method=method, **kw).pvalue > alpha

    centre = m // 2
    assert accepted(centre), "the centre must be accepted"
    # first accepted j in [0, centre]
    low, high = 0, centre
    while low < high:
        mid = (low + high) // 2
        if accepted(mid):
            high = mid
        else:
            low = mid + 1
    first = low
    # last accepted j in [centre, m]
    low, high = centre, m
    while low < high:
        mid = (low + high + 1) // 2
        if accepted(mid):
            low = mid
        else:
            high = mid - 1
    last = low
    lower = 0.0 if first == 0 else math.exp(walsh[first - 1])
    upper = math.inf if last == m else math.exp(walsh[last])
    return math.exp(float(np.median(walsh))), lower, upper


def main(path, method):
    data = json.load(open(path))
    d = [math.log(median(a) / median(b)) for a, b in zip(data["a"], data["b"])]
    ratio, lower, upper = interval(d, data["level"], method)
    print(f"{ratio!r} {lower!r} {upper!r}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
