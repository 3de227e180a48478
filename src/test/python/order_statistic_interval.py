"""Independent check of dev.spacebench.stats.OrderStatisticInterval's choice of ranks.

Brute force over every pair of extended ranks (l in 0..n, u in 1..n+1, l < u; 0 and n+1 are
open ends) with SciPy's binomial CDF, applying the rule in the Java class comment:
coverage F(u-1) - F(l-1) >= level; then fewest open ends, smallest u - l, largest coverage
(within 1e-12 equal), smallest l.

    python3 src/test/python/order_statistic_interval.py 20:50 300:99 1000:95
prints "n p lower upper lower_bounded upper_bounded coverage" per argument.
"""
import sys

import numpy as np
from scipy.stats import binom

TIE = 1e-12


def ranks(p, n, level=0.95):
    # ext[i] = F(i - 1): ext[0] = F(-1) = 0, ext[n + 1] = F(n) = 1
    ext = np.concatenate(([0.0], binom.cdf(np.arange(n), n, p / 100.0), [1.0]))
    best = None
    for l in range(0, n + 1):
        for u in range(l + 1, n + 2):
            c = ext[u] - ext[l]
            if c < level:
                continue
            key = ((l == 0) + (u == n + 1), u - l)
            if best is None or key < best[0] or (key == best[0] and c > best[1] + TIE):
                best = (key, c, l, u)
    _, c, l, u = best
    return max(l, 1), min(u, n), l >= 1, u <= n, c


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        n, p = arg.split(":")
        lo, hi, lb, ub, c = ranks(float(p), int(n))
        print(n, p, lo, hi, str(lb).lower(), str(ub).lower(), repr(float(c)))
