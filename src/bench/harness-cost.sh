#!/usr/bin/env bash
# What Spacebench's own harness costs per round trip, in measures a loaded host does not bend
# (issue 10): CPU time of the agent, of the commands it ran and of the client; context switches and
# the threads woken; heap bytes allocated; agent GCs inside the loops; and the agent's start (CPU
# time and classes loaded until READY). The same for the bare floors: a ProcessBuilder loop and a
# bare gRPC ping in one JVM, and hyperfine's own CPU time for `true` and `sh -c true`.
#
#   src/bench/harness-cost.sh                      # N=2000 round trips per loop, W=2000 warm-up pings
#   N=5000 src/bench/harness-cost.sh -XX:TieredStopAtLevel=1   # extra agent JVM options, for A/B
#
# Wall-clock figures (p50) are printed too but only mean something on a quiet host; the load
# average is printed before and after. A benchmark, not a test: it prints, it asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."

N=${N:-2000}
W=${W:-2000}
JAR=${JAR:-target/spacebench.jar}
[ -f "$JAR" ] || ./mvnw -B -q -DskipTests package

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)   ($(nproc) CPUs)"
java -jar "$JAR" floor cost "$N" "$W" "$@"
if command -v hyperfine >/dev/null; then
  WORK=$(mktemp -d /tmp/spacebench-cost-XXXXXX)
  trap 'rm -rf "$WORK"' EXIT
  for cmd in true "sh -c true"; do
    hyperfine -N --runs "$N" --warmup 20 --export-json "$WORK/hf.json" "$cmd" >/dev/null 2>&1
    python3 - "$cmd" "$WORK/hf.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[2]))["results"][0]
t = sorted(r["times"])
print(f"hyperfine -N {sys.argv[1]!r:14} p50 {t[len(t) // 2] * 1e6:9.1f} µs | hyperfine + command CPU {(r['user'] + r['system']) * 1e6:8.1f} µs per run (mean user + system)")
PY
  done
else
  echo "(hyperfine not installed: its rows are missing)"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
