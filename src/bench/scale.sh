#!/usr/bin/env bash
# How the cost of a run's page, plot, samples.csv and comparison grows with its samples.
#
#   src/bench/scale.sh                        # 10,000, 100,000 and 1,000,000 samples
#   SIZES="10000 100000" src/bench/scale.sh   # fewer sizes
#   JAR=/tmp/other.jar PORT=18102 src/bench/scale.sh
#   METRICS="noop true sh_c" src/bench/scale.sh   # the issue's 3 exec metrics (hours at 1,000,000 here)
#
# For each size N it measures one run of a process Space with the exec metrics in METRICS (default
# the no-op round trip only), n = N each, no warm-ups, no files and no floor, then times (best of
# REPEAT, default 3):
#   page     GET /runs/ID
#   plot     GET /api/runs/ID/plots/exec.M.svg, the slowest of the metrics' plots
#   csv      GET /api/runs/ID/samples.csv (MB/s, 10^6 bytes per second; and how much the heap's live
#            set grows while it streams: a full GC before, and one in the middle of a download slowed
#            to 4 MB/s)
# Beside each wall time it prints the app's CPU time per request (user + system, from /proc), which
# a loaded host moves far less than wall time, and the load average.
#   compare  GET /compare?runs=ID,ID
# and prints each time, each time per sample, and the app's heap (it runs with -Xmx512m): used
# before the requests, the peak while samples.csv streams, and the live set after a full GC once
# everything is done. Only the no-op round trip is measured because it is the fastest to produce
# (≈ 0.1–0.2 ms a sample here; `true` and `sh -c true` start a process each, ≈ 1–3 ms, so a
# million of them would take an hour): the 1,000,000 run takes a few minutes.
# This is a benchmark, not a test: it prints, it does not assert.
set -euo pipefail
cd "$(dirname "$0")/../.."

SIZES=${SIZES:-10000 100000 1000000}
METRICS=${METRICS:-noop}
METRICS_JSON=$(printf '"%s",' $METRICS); METRICS_JSON="[${METRICS_JSON%,}]"
REPEAT=${REPEAT:-3}
JAR=${JAR:-target/spacebench.jar}
[ -f "$JAR" ] || ./mvnw -B -q -DskipTests package
PORT=${PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}

WORK=$(mktemp -d /tmp/spacebench-scale-XXXXXX)
export SPACEBENCH_API_TOKEN=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')
java -Xmx512m -jar "$JAR" --server.port="$PORT" --spring.datasource.url="jdbc:h2:file:$WORK/db" \
     --spacebench.spaces.root="$WORK/spaces" > "$WORK/app.log" 2>&1 &
APP=$!
trap 'kill $APP 2>/dev/null || true; wait $APP 2>/dev/null || true; rm -rf "$WORK"' EXIT
BASE=http://127.0.0.1:$PORT
source src/bench/runs.sh
for _ in $(seq 1 300); do curl -sf "$BASE/actuator/health" >/dev/null && break; sleep 1; done
curl -sf "$BASE/actuator/health" >/dev/null || { echo "the app did not come up within 300 s:" >&2; tail -20 "$WORK/app.log" >&2; exit 1; }

# Heap in use (survivors, eden and old generation), MiB.
heap() { jstat -gc "$APP" | awk 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{printf "%.0f\n", ($c["S0U"]+$c["S1U"]+$c["EU"]+$c["OU"])/1024}'; }

# The app's CPU time so far (user + system, all threads), seconds: a figure the host's load moves
# far less than wall time.
TICK=$(getconf CLK_TCK)
cpu() { awk -v t="$TICK" '{printf "%.2f\n", ($14+$15)/t}' "/proc/$APP/stat"; }

# Best of REPEAT: "seconds bytes cpu", cpu being the app's mean CPU seconds per request.
timed() {
  local best="" t c0
  c0=$(cpu)
  for _ in $(seq 1 "$REPEAT"); do
    t=$(curl -s -o /dev/null -w '%{http_code} %{time_total} %{size_download}' "$BASE$1")
    [ "${t%% *}" = 200 ] || { echo "GET $1 answered ${t%% *}" >&2; exit 1; }
    t=${t#* }
    if [ -z "$best" ] || awk -v a="${t% *}" -v b="${best% *}" 'BEGIN{exit !(a<b)}'; then best=$t; fi
  done
  echo "$best $(awk -v a="$c0" -v b="$(cpu)" -v r="$REPEAT" 'BEGIN{printf "%.3f", (b-a)/r}')"
}

echo "load average when it began: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo "each request: best wall time of $REPEAT in s, the app's mean CPU time per request in s, and both per sample in µs"
echo "n: samples per metric; metrics: $METRICS (per-sample figures divide by n × $(wc -w <<< "$METRICS"))"
printf '%-8s %6s | %-23s | %-23s | %-31s | %-23s | %6s %8s | %s\n' n measure "page s cpu (µs/sample)" "plot s cpu (µs/sample)" \
  "csv s cpu MB/s (cpu µs/row)" "compare s cpu (µs/smp)" heap "csv live+" load
for N in $SIZES; do
  start=$(date +%s.%N)
  id=$(post_run "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":$METRICS_JSON,\"n\":$N,\"warmups\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}")
  await_run "$id"
  measured=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN{printf "%.0f", b-a}')
  before=$(heap)
  read -r page _ page_cpu <<< "$(timed "/runs/$id")"
  plot=0; plot_cpu=0
  for m in $METRICS; do
    read -r p _ pc <<< "$(timed "/api/runs/$id/plots/exec.$m.svg")"
    if awk -v a="$p" -v b="$plot" 'BEGIN{exit !(a>b)}'; then plot=$p; plot_cpu=$pc; fi
  done
  read -r csv csv_bytes csv_cpu <<< "$(timed "/api/runs/$id/samples.csv")"
  # The live set while samples.csv streams, against the live set just before.
  jcmd "$APP" GC.run >/dev/null; live_before=$(heap)
  curl -s -o /dev/null --limit-rate 4M "$BASE/api/runs/$id/samples.csv" &
  SLOW=$!
  sleep 2
  jcmd "$APP" GC.run >/dev/null; live_during=$(heap)
  wait $SLOW
  peak=$((live_during - live_before))
  read -r compare _ compare_cpu <<< "$(timed "/compare?runs=$id,$id")"
  awk -v n="$N" -v t="$((N * $(wc -w <<< "$METRICS")))" -v m="$measured" -v p="$page" -v pc="$page_cpu" -v pl="$plot" -v plc="$plot_cpu" -v c="$csv" -v cc="$csv_cpu" \
      -v cb="$csv_bytes" -v cmp="$compare" -v cmpc="$compare_cpu" -v h="$before" -v pk="$peak" -v l="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN{
    printf "%-8d %5ss | %6.3f %6.3f (%6.2f) | %6.3f %6.3f (%6.3f) | %6.3f %6.3f %6.1f (%6.3f) | %6.3f %6.3f (%6.2f) | %4dMiB %5dMiB | %s\n",
      n, m, p, pc, p/t*1e6, pl, plc, pl/t*1e6, c, cc, cb/c/1e6, cc/t*1e6, cmp, cmpc, cmp/t*1e6, h, pk, l }'
done
jcmd "$APP" GC.run >/dev/null
echo "heap after a full GC, once every run and request above is done: $(heap) MiB (-Xmx512m)"
