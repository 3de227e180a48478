"""Independent check of a run's paired figures and drift check (publish/PairedFigures.java,
publish/Drift.java) from its samples.csv alone.

    python3 paired_figures.py samples.csv pairs NUM=DEN[+DEN...] ...
    python3 paired_figures.py samples.csv drift

Only measured ok rows with a block count. A series' block median is the nearest-rank median
(the ceil(n/2)-th smallest) of its samples in that block. pairs: for each NUM=DEN1+DEN2, the
blocks all series have; per block d = ln(median NUM / (median DEN1 + median DEN2 ...)); then the
Hodges-Lehmann estimate and the interval that inverts scipy.stats.wilcoxon (paired_ratio.py,
exact method). Prints "NUM ratio lower upper". drift: per series with at least 6 blocks,
scipy.stats.spearmanr(block, median) and scipy.stats.theilslopes(median, block); prints
"metric rho p slope".
"""
import collections
import csv
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired_ratio import interval  # noqa: E402
from scipy.stats import spearmanr, theilslopes  # noqa: E402


def block_medians(path):
    samples = collections.defaultdict(lambda: collections.defaultdict(list))
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["phase"] == "measured" and row["ok"] == "true" and row["block"]:
                samples[row["metric"]][int(row["block"])].append(int(row["ns"]))
    medians = {}
    for metric, blocks in samples.items():
        medians[metric] = {b: sorted(v)[math.ceil(len(v) / 2) - 1] for b, v in blocks.items()}
    return medians


def main(path, mode, specs):
    medians = block_medians(path)
    if mode == "pairs":
        for spec in specs:
            num, den = spec.split("=")
            parts = den.split("+")
            common = sorted(set(medians[num]).intersection(*[set(medians[p]) for p in parts]))
            d = [math.log(medians[num][b] / sum(medians[p][b] for p in parts)) for b in common]
            ratio, lower, upper = interval(d, 0.95, "exact")
            print(f"{num} {ratio!r} {lower!r} {upper!r}")
    else:
        for metric in sorted(medians):
            blocks = sorted(medians[metric])
            if len(blocks) < 6:
                continue
            values = [medians[metric][b] for b in blocks]
            rho, p = spearmanr(blocks, values)
            slope = theilslopes(values, blocks)[0]
            print(f"{metric} {float(rho)!r} {float(p)!r} {float(slope)!r}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
