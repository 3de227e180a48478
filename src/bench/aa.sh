#!/usr/bin/env bash
# The A/A check of comparison runs (issue 29): the same process Space twice in one comparison run,
# RUNS times; the 95% CI of B ÷ A should hold 1 in about 19 of 20 (9-10 of 10). For contrast, the
# same RUNS as pairs of separate runs, one after the other (B ÷ A of their p50s, no interval: what
# comparing two runs gave before), then one process-vs-sandbox comparison, whose CI should exclude 1.
#
#   src/bench/aa.sh                     # starts the jar (builds it if needed) on a fresh database
#   BASE=http://127.0.0.1:8080 SPACEBENCH_API_TOKEN=$(cat data/api-token) src/bench/aa.sh   # a running app
#   RUNS=10 N=300 METRICS='"noop","true"' src/bench/aa.sh
#
# The load average is printed with every run: this host is shared, and a busy host widens the
# intervals (which is what they are for). This is a benchmark, not a test: it prints, it does not assert.
set -euo pipefail
cd "$(dirname "$0")/../.."

RUNS=${RUNS:-10}
N=${N:-300}
BLOCK=${BLOCK:-10}
METRICS=${METRICS:-'"noop","true"'}
for tool in curl python3; do
  command -v $tool >/dev/null || { echo "$tool is needed (Debian: apt-get install $tool)" >&2; exit 2; }
done

WORK=$(mktemp -d /tmp/spacebench-aa-XXXXXX)
if [ -z "${BASE:-}" ]; then
  JAR=${JAR:-target/spacebench.jar}
  [ -f "$JAR" ] || ./mvnw -B -q -DskipTests package
  PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  # State changes need the API token (docs/security.md); this app gets one of its own.
  export SPACEBENCH_API_TOKEN=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')
  java -jar "$JAR" --server.port="$PORT" --spring.datasource.url="jdbc:h2:file:$WORK/db" \
       --spacebench.spaces.root="$WORK/spaces" > "$WORK/app.log" 2>&1 &
  APP=$!
  trap 'kill $APP 2>/dev/null; wait $APP 2>/dev/null; rm -rf "$WORK"' EXIT
  BASE=http://127.0.0.1:$PORT
  # A loaded host can take minutes to start the app: wait up to STARTUP_WAIT seconds (default 600).
  for _ in $(seq 1 "${STARTUP_WAIT:-600}"); do curl -sf "$BASE/actuator/health" >/dev/null && break; sleep 1; done
else
  : "${SPACEBENCH_API_TOKEN:?set SPACEBENCH_API_TOKEN to the API token of the app (data/api-token)}"
  trap 'rm -rf "$WORK"' EXIT
fi

load() { cut -d' ' -f1-3 /proc/loadavg; }
source src/bench/runs.sh
PLAN="\"plan\":{\"blockSize\":$BLOCK,\"exec\":{\"metrics\":[$METRICS],\"n\":$N},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}"
run() { # $1 = label, $2 = JSON body; saves the finished run's result.json as $WORK/$1.json
  local id
  echo "[$1] load $(load)" >&2
  id=$(post_run "$2")
  if [ -z "$id" ]; then
    echo "[$1] refused:" >&2
    curl -s -X POST "$BASE/api/runs" -H "Authorization: Bearer $SPACEBENCH_API_TOKEN" -H 'Content-Type: application/json' -d "$2" >&2
    return 1
  fi
  await_run "$id" || return 1
  curl -sf "$BASE/api/runs/$id/result.json" > "$WORK/$1.json"
}

for i in $(seq 1 "$RUNS"); do
  AA="{\"compare\":[{\"label\":\"A\",\"space\":{\"kind\":\"process\"}},{\"label\":\"B\",\"space\":{\"kind\":\"process\"}}],$PLAN}"
  run "aa-$i" "$AA" || echo "  (A/A comparison $i did not succeed: left out)" >&2
done
for i in $(seq 1 "$RUNS"); do
  for side in a b; do
    run "seq-$i-$side" "{\"space\":{\"kind\":\"process\"},$PLAN}" || echo "  (separate run $i $side did not succeed: left out)" >&2
  done
done
PS="{\"compare\":[{\"label\":\"process\",\"space\":{\"kind\":\"process\"}},{\"label\":\"sandbox\",\"space\":{\"kind\":\"sandbox\"}}],$PLAN}"
run "ps" "$PS" || echo "  (no process-vs-sandbox comparison: is the sandbox kind available here? Debian: bubblewrap)" >&2

python3 - "$WORK" "$RUNS" <<'PY'
import json, os, sys
work, runs = sys.argv[1], int(sys.argv[2])
def load(name):
    path = os.path.join(work, name + ".json")
    return json.load(open(path)) if os.path.exists(path) else None
def ci(e):
    return (e["lower"], e["upper"] if e["upper"] is not None else float("inf"))
print(f"A/A: {runs} comparison runs of two process Spaces (B ÷ A, Hodges-Lehmann on block log-ratios, 95% Wilcoxon CI)")
hits, total, by = 0, 0, {}
for i in range(1, runs + 1):
    doc = load(f"aa-{i}")
    if doc is None:
        print(f"  run {i}: did not succeed"); continue
    cells = []
    for row in doc["comparison"]["metrics"]:
        b = row["entries"][1]
        lo, hi = ci(b)
        holds = lo <= 1 <= hi
        hits += holds; total += 1
        by.setdefault(row["metric"], []).append((b["ratio"], lo, hi, holds))
        cells.append(f'{row["metric"]} {b["ratio"]:.3f} [{lo:.3f}, {hi:.3f}] width {hi - lo:.3f}{"" if holds else "  EXCLUDES 1"}')
    print(f"  run {doc['run']['id']}: " + "; ".join(cells))
print(f"  CIs holding 1: {hits} of {total}")
for metric, rows in by.items():
    widths = sorted(hi - lo for _, lo, hi, _ in rows)
    print(f"  {metric}: {sum(h for *_, h in rows)} of {len(rows)} hold 1; widths {widths[0]:.3f} to {widths[-1]:.3f} "
          f"(median {widths[len(widths) // 2]:.3f}); ratios {min(r for r, *_ in rows):.3f} to {max(r for r, *_ in rows):.3f}")
print()
print(f"Contrast: the same {runs} as pairs of separate runs one after the other (B ÷ A of p50, no interval)")
ratios = {}
for i in range(1, runs + 1):
    a, b = load(f"seq-{i}-a"), load(f"seq-{i}-b")
    if a is None or b is None:
        print(f"  pair {i}: a run did not succeed"); continue
    pa = {m["metric"]: m["p50Ns"] for m in a["metrics"]}
    pb = {m["metric"]: m["p50Ns"] for m in b["metrics"]}
    cells = []
    for metric in by or pa:
        if metric in pa and metric in pb and pa[metric]:
            r = pb[metric] / pa[metric]
            ratios.setdefault(metric, []).append(r)
            cells.append(f"{metric} {r:.3f}")
    print(f"  pair {i} (runs {a['run']['id']}, {b['run']['id']}): " + "; ".join(cells))
for metric, rs in ratios.items():
    print(f"  {metric}: B ÷ A from {min(rs):.3f} to {max(rs):.3f}")
print()
doc = load("ps")
if doc is None:
    print("process vs sandbox: no run")
else:
    print(f"process vs sandbox, one comparison run ({doc['run']['id']}): sandbox ÷ process")
    for row in doc["comparison"]["metrics"]:
        b = row["entries"][1]
        lo, hi = ci(b)
        print(f"  {row['metric']}: {b['ratio']:.3f} [{lo:.3f}, {hi:.3f}] {'holds 1' if lo <= 1 <= hi else 'excludes 1'}"
              f" (p50 {row['entries'][0]['p50Ns'] / 1e3:.0f} µs vs {b['p50Ns'] / 1e3:.0f} µs)")
PY
