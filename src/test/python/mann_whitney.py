"""Independent check of a comparison's significance test: SciPy's Mann-Whitney U on two runs'
samples.csv, for one metric.

    python3 mann_whitney.py samples_a.csv samples_b.csv METRIC

Takes the measured, ok samples of METRIC from each file and prints "u p" where u is U of the
first set and p the two-sided p-value of scipy.stats.mannwhitneyu with the normal approximation
and continuity correction (the variant the comparison page names).
"""
import csv
import sys

from scipy.stats import mannwhitneyu


def measured(path, metric):
    with open(path, newline="") as f:
        return [int(row["ns"]) for row in csv.DictReader(f)
                if row["metric"] == metric and row["phase"] == "measured" and row["ok"] == "true"]


def main(a_path, b_path, metric):
    a, b = measured(a_path, metric), measured(b_path, metric)
    result = mannwhitneyu(a, b, alternative="two-sided", method="asymptotic", use_continuity=True)
    print(f"{float(result.statistic)!r} {float(result.pvalue)!r}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
