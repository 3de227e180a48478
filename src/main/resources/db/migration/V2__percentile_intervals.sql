-- The 95% order-statistic confidence interval of each published percentile, as JSON:
-- {"p50": {"lowerNs": …, "upperNs": …, "lowerRank": …, "upperRank": …, "lowerBounded": true,
--          "upperBounded": true, "coverage": 0.9501, "level": 0.95}, "p95": {…}, "p99": {…}}
ALTER TABLE metric_result ADD COLUMN intervals VARCHAR(4000);
