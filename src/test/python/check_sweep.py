"""Independent check of a concurrency sweep: recompute every level's pooled figures from samples.csv.

    python3 check_sweep.py samples.csv result.json

Uses only the Python standard library (and check_result.py beside it for the nearest rank and the
order-statistic interval). From the rows of samples.csv that carry a level, grouped by (level,
metric) through the level and space_index columns alone:
- n, failures (measured rows with ok false), min, p50, p95, p99, slowest and their 95% intervals,
  pooled over the level's Spaces;
- the spread: p50 of the fastest and of the slowest Space (each Space's own p50, nearest rank);
- each level has L Spaces (space_index 1..L), each with one ready sample;
- per second = n / (wallNs / 1e9), and for the burst create, wall = the slowest Space's ready time;
- result.json's concurrency rows name every (level, metric) group and nothing else;
- the knee: the first level above 1 whose p99 of the knee metric exceeds twice its level-1 p99.
Prints one line per check that fails and a closing count; exits 1 if any differs.
"""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_result import interval_ranks, nearest_rank  # noqa: E402


def main(samples_path, result_path):
    groups, spaces, failures = {}, {}, {}
    with open(samples_path, newline="") as f:
        for row in csv.DictReader(f):
            if not row["level"]:
                if row["space_index"]:
                    print(f"MISMATCH space_index without level: {row}")
                    return 1
                continue
            level, index = int(row["level"]), int(row["space_index"])
            metric = row["metric"]
            prefix = f"sweep.{level}."
            if not metric.startswith(prefix) or not 1 <= index <= level:
                print(f"MISMATCH row {metric} at level {level}, Space {index}")
                return 1
            key = (level, metric[len(prefix):])
            if row["phase"] != "measured":
                continue
            if row["ok"] == "true":
                groups.setdefault(key, []).append(int(row["ns"]))
                spaces.setdefault(key, {}).setdefault(index, []).append(int(row["ns"]))
            else:
                failures[key] = failures.get(key, 0) + 1
    with open(result_path) as f:
        result = json.load(f)
    by_id = {m["metric"]: m for m in result["metrics"]}
    section = result["concurrency"]

    passed, failed = 0, 0

    def check(what, expected, published):
        nonlocal passed, failed
        if expected == published:
            passed += 1
        else:
            failed += 1
            print(f"MISMATCH {what}: recomputed {expected}, published {published}")

    keys = sorted(set(groups) | set(failures))
    check("concurrency rows", [(lv, m, f"sweep.{lv}.{m}") for lv, m in keys],
          sorted((r["level"], r["metric"], r["id"]) for r in section["rows"]))
    for level in section["levels"]:
        check(f"level {level} ready Spaces", list(range(1, level + 1)), sorted(spaces.get((level, "space.ready"), {})))
    for level, metric in keys:
        name = f"sweep.{level}.{metric}"
        m = by_id[name]
        xs = sorted(groups.get((level, metric), []))
        n = len(xs)
        check(f"{name} level", level, m["level"])
        check(f"{name} n", n, m["n"])
        check(f"{name} failures", failures.get((level, metric), 0), m["failures"])
        if n == 0:
            continue
        check(f"{name} min", xs[0], m["minNs"])
        check(f"{name} slowest", xs[-1], m["slowestNs"])
        for p in (50, 95, 99):
            check(f"{name} p{p}", xs[nearest_rank(p, n) - 1], m[f"p{p}Ns"])
            lo_rank, lo_bounded, up_rank, up_bounded, _ = interval_ranks(p, n)
            ci = m["intervals"][f"p{p}"]
            check(f"{name} p{p} CI", (lo_rank, lo_bounded, xs[lo_rank - 1], up_rank, up_bounded, xs[up_rank - 1]),
                  (ci["lowerRank"], ci["lowerBounded"], ci["lowerNs"], ci["upperRank"], ci["upperBounded"], ci["upperNs"]))
        p50s = []
        for values in spaces[(level, metric)].values():
            values = sorted(values)
            p50s.append(values[nearest_rank(50, len(values)) - 1])
        check(f"{name} fastest Space p50", min(p50s), m["fastestSpaceP50Ns"])
        check(f"{name} slowest Space p50", max(p50s), m["slowestSpaceP50Ns"])
        if metric == "space.ready":
            check(f"{name} wall = slowest ready", xs[-1], m["wallNs"])
        rate = n / (m["wallNs"] / 1e9)
        check(f"{name} per second", True, abs(rate - m["perSecond"]) <= 1e-9 * rate)
    knee_metric = section["kneeMetric"]
    single = by_id.get(f"sweep.1.{knee_metric}", {}).get("p99Ns")
    knee = None
    if single is not None:
        for level in section["levels"]:
            p99 = by_id.get(f"sweep.{level}.{knee_metric}", {}).get("p99Ns")
            if level > 1 and p99 is not None and p99 > 2 * single:
                knee = level
                break
        check("single-Space p99", single, section["singleSpaceP99Ns"])
    check("knee level", knee, section["kneeLevel"])
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
