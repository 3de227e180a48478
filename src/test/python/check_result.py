"""Independent check of a Spacebench run: recompute every figure of result.json from samples.csv.

    python3 check_result.py samples.csv result.json

Uses only the Python standard library and the definitions the page states:
- the measured, ok samples of each metric (phase "measured", ok "true");
- percentile p by nearest rank: the sample at rank k = max(1, ceil(p/100 * n)), with p*n
  computed exactly (integers), never interpolated;
- slowest = the largest sample, min = the smallest;
- the 95% order-statistic interval (binomial method): extended ranks l in 0..n, u in 1..n+1,
  l < u, coverage F(u-1) - F(l-1) >= 0.95 with F the Binomial(n, p/100) CDF, F(-1) = 0,
  F(n) = 1; chosen by fewest open ends, then smallest u - l, then largest coverage (within
  1e-12 equal), then smallest l. An open end is reported at rank 1 or n, flagged unbounded.
- the split (issue 10), over the measured ok samples with an agent_ns: p50 of ns, p50 of
  agent_ns and p50 of ns - agent_ns per sample; a metric without such samples has no split.
  Its tail: the samples whose ns is at or above the p99 of ns (ties included), their count,
  the p50 of their agent_ns and of their ns - agent_ns; and the slowest sample (largest ns,
  ties: largest agent_ns) with its agent_ns and ns - agent_ns.
Prints one line per check that fails and a closing count; exits 1 if any figure differs.
"""
import csv
import json
import math
import sys
from fractions import Fraction

LEVEL = 0.95
TIE = 1e-12


def nearest_rank(p, n):
    k = math.ceil(Fraction(str(p)) * n / 100)
    return max(1, min(n, k))


def binomial_cdf(n, q):
    """F(k) for k = 0..n-1, summed from the pmf in log space (math.lgamma)."""
    cdf, total = [], 0.0
    log_q, log_1q = math.log(q), math.log1p(-q)
    for k in range(n):
        log_pmf = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * log_q + (n - k) * log_1q
        total += math.exp(log_pmf)
        cdf.append(min(total, 1.0))
    return cdf


def interval_ranks(p, n):
    cdf = binomial_cdf(n, p / 100)
    ext = [0.0] + cdf + [1.0]  # ext[i] = F(i - 1)
    best = None
    for low in range(0, n + 1):
        for up in range(low + 1, n + 2):
            coverage = ext[up] - ext[low]
            if coverage < LEVEL:
                continue
            key = ((low == 0) + (up == n + 1), up - low)
            if best is None or key < best[0] or (key == best[0] and coverage > best[1] + TIE):
                best = (key, coverage, low, up)
    _, coverage, low, up = best
    return max(low, 1), low >= 1, min(up, n), up <= n, coverage


def p50(values):
    values = sorted(values)
    return values[nearest_rank(50, len(values)) - 1]


def split(pairs):
    """The split as result.json states it, or None without agent_ns samples."""
    if not pairs:
        return None
    ns_sorted = sorted(ns for ns, _ in pairs)
    p99 = ns_sorted[nearest_rank(99, len(ns_sorted)) - 1]
    tail = [(ns, agent) for ns, agent in pairs if ns >= p99]
    slowest_ns, slowest_agent = max(pairs)
    return {"roundTripP50Ns": p50([ns for ns, _ in pairs]),
            "agentP50Ns": p50([agent for _, agent in pairs]),
            "restP50Ns": p50([ns - agent for ns, agent in pairs]),
            "roundTripP99Ns": p99,
            "tailN": len(tail),
            "tailAgentP50Ns": p50([agent for _, agent in tail]),
            "tailRestP50Ns": p50([ns - agent for ns, agent in tail]),
            "slowestNs": slowest_ns,
            "slowestAgentNs": slowest_agent,
            "slowestRestNs": slowest_ns - slowest_agent}


def main(samples_path, result_path):
    measured, timed = {}, {}
    with open(samples_path, newline="") as f:
        for row in csv.DictReader(f):
            if row["phase"] == "measured" and row["ok"] == "true":
                measured.setdefault(row["metric"], []).append(int(row["ns"]))
                if row.get("agent_ns"):
                    timed.setdefault(row["metric"], []).append((int(row["ns"]), int(row["agent_ns"])))
    with open(result_path) as f:
        result = json.load(f)

    passed, failed = 0, 0

    def check(what, expected, published):
        nonlocal passed, failed
        if expected == published:
            passed += 1
        else:
            failed += 1
            print(f"MISMATCH {what}: recomputed {expected}, published {published}")

    for metric in result["metrics"]:
        name = metric["metric"]
        xs = sorted(measured.get(name, []))
        n = len(xs)
        check(f"{name} n", n, metric["n"])
        check(f"{name} split", split(timed.get(name, [])), metric.get("split"))
        if n == 0:
            continue
        check(f"{name} min", xs[0], metric["minNs"])
        check(f"{name} slowest", xs[-1], metric["slowestNs"])
        for p in (50, 95, 99):
            check(f"{name} p{p}", xs[nearest_rank(p, n) - 1], metric[f"p{p}Ns"])
            lo_rank, lo_bounded, up_rank, up_bounded, coverage = interval_ranks(p, n)
            ci = metric["intervals"][f"p{p}"]
            check(f"{name} p{p} CI lower", (lo_rank, lo_bounded, xs[lo_rank - 1]),
                  (ci["lowerRank"], ci["lowerBounded"], ci["lowerNs"]))
            check(f"{name} p{p} CI upper", (up_rank, up_bounded, xs[up_rank - 1]),
                  (ci["upperRank"], ci["upperBounded"], ci["upperNs"]))
            if abs(coverage - ci["coverage"]) > 1e-9:
                check(f"{name} p{p} CI coverage", round(coverage, 9), round(ci["coverage"], 9))
    unpublished = set(measured) - {m["metric"] for m in result["metrics"]}
    check("metrics in samples.csv but not in result.json", set(), unpublished)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
