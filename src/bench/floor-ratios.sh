#!/usr/bin/env bash
# Measures Spacebench against its bare floor on this machine and prints issue 10's ratios (lower is
# better; 1.0 = nothing above the floor). The exec and no-op ratios come from ONE interleaved run
# each (issue 29): the run measures its own floor in blocks taken in turn with the Space's, and each
# ratio is the block-paired ratio of medians with its 95% confidence interval, read from the run's
# samples.csv (Hodges-Lehmann estimate with the Wilcoxon signed-rank interval on the log-ratios of
# paired block medians, as stats/PairedRatio computes it), so that the host's drift between
# separate goes no longer decides it.
#
#   src/bench/floor-ratios.sh            # builds the jar if needed; takes several minutes
#   N=300 FILE_N=10 BLOCK=10 src/bench/floor-ratios.sh   # N/BLOCK blocks per series (6 or more bound a CI)
#   PARTS="stream rss" src/bench/floor-ratios.sh   # only some parts (process sandbox stream cp rss);
#                                                  # the rows of the others stay empty
#
# Honest floors (issue 10, section 4):
#   - the no-op floor is a bare grpc-java ping on the Space's own transport: TCP loopback for the
#     process kind, a unix socket for the sandbox kind (the run's floor.grpc.noop), to a server in a
#     JVM of its own started as the agent is (same JVM options and class-data archive);
#   - the exec floors are `hyperfine -N true` and `hyperfine -N 'sh -c true'` (the run's
#     floor.hyperfine.true and .sh_c, one hyperfine per block) plus the bare ping on the same
#     transport: per block, the Space's median ÷ (hyperfine's median + the ping's median);
#   - the stream floor is a bare grpc-java stream of the same bytes with the same SHA-256 hashing
#     on both sides (`spacebench.jar floor stream BYTES N W hash`);
#   - the bulk floor is cp plus one SHA-256 pass with the CPU's SHA instructions (openssl dgst),
#     not coreutils sha256sum.
# The Space figures come from Spacebench runs on a fresh app; the stream and bulk floors, which no
# run measures, right after the run they are compared with. The p99/p50 rows compare whole series
# (a tail is not a block's). The load average is printed with every run.
# This is a benchmark, not a test: it prints, it does not assert.
set -euo pipefail
cd "$(dirname "$0")/../.."

N=${N:-300}
FILE_N=${FILE_N:-10}
READY_N=${READY_N:-5}
BYTES=$((100 * 1024 * 1024))
RSS_BYTES=$((512 * 1024 * 1024))
BLOCK=${BLOCK:-10}
PARTS=${PARTS:-process sandbox stream cp rss}
part() { [[ " $PARTS " == *" $1 "* ]]; }
JAR=${JAR:-target/spacebench.jar}
[ -f "$JAR" ] || ./mvnw -B -q -DskipTests package
for tool in hyperfine openssl curl python3; do
  command -v $tool >/dev/null || { echo "$tool is needed (Debian: apt-get install $tool)" >&2; exit 2; }
done

WORK=$(mktemp -d /tmp/spacebench-ratios-XXXXXX)
APP=""
trap 'kill $APP 2>/dev/null; wait $APP 2>/dev/null; rm -rf "$WORK"' EXIT

load() { cut -d' ' -f1-3 /proc/loadavg; }
source src/bench/runs.sh
run() { # $1 = label, $2 = JSON body; prints the finished run's result.json path
  local id
  echo "[$1] load $(load)" >> "$WORK/loads"
  id=$(post_run "$2")
  await_run "$id" || exit 1
  curl -sf "$BASE/api/runs/$id/result.json" > "$WORK/result-$id.json"
  curl -sf "$BASE/api/runs/$id/samples.csv" > "$WORK/samples-$id.csv"
  echo "$WORK/result-$id.json"
}
start_app "$WORK"

BULK="" SANDBOX="" STREAM=""
if part process; then
echo "exec with its floor interleaved, ready and the bulk lane, process Space (run 1) …" >&2
BULK=$(run process "{\"space\":{\"kind\":\"process\"},\"plan\":{\"order\":\"interleaved\",\"blockSize\":$BLOCK,\"spaces\":$READY_N,\"exec\":{\"metrics\":[\"noop\",\"true\",\"sh_c\"],\"n\":$N},\"files\":{\"sizes\":[{\"bytes\":$BYTES,\"n\":$FILE_N}]},\"floor\":{\"enabled\":true}}}")
fi

if part sandbox; then
echo "no-op with its floor interleaved (bare ping on a unix socket) and ready, sandbox Space (run 2) …" >&2
if SANDBOX=$(run sandbox "{\"space\":{\"kind\":\"sandbox\"},\"plan\":{\"order\":\"interleaved\",\"blockSize\":$BLOCK,\"spaces\":$READY_N,\"exec\":{\"metrics\":[\"noop\"],\"n\":$N},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":true}}}"); then
  :
else
  SANDBOX=""; echo "  (no sandbox run: its rows stay empty)" >&2
fi
fi

if part stream; then
echo "the stream lane (run 3) and a bare stream with the same hashing …" >&2
STREAM=$(run stream "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[]},\"files\":{\"sizes\":[{\"bytes\":$BYTES,\"n\":$FILE_N}],\"bulkThresholdBytes\":$((BYTES + 1))},\"floor\":{\"enabled\":false}}}")
java -jar "$JAR" floor stream "$BYTES" "$FILE_N" 1 hash > "$WORK/stream.json" || echo "  (bare stream failed: its rows stay empty)" >&2
fi

if part cp; then
echo "cp + openssl SHA-256 of the same bytes …" >&2
head -c "$BYTES" /dev/urandom > "$WORK/src.bin"
hyperfine -N --runs "$FILE_N" --warmup 1 --prepare "rm -f $WORK/dst.bin" --export-json "$WORK/cp.json" \
  "sh -c 'cp $WORK/src.bin $WORK/dst.bin && openssl dgst -sha256 $WORK/dst.bin'" >/dev/null 2>&1
fi

if part rss; then
echo "RSS over a 512 MiB upload and download, stream lane (run 4) …" >&2
python3 - "$APP" "$WORK/spaces" > "$WORK/rss.json" <<'PY' &
# Samples the app's and its descendants' (the agent's) RSS every 100 ms until the app's children
# are gone again; prints, in KiB, app and agent at first sight of the agent and their peaks, and the
# same from the moment the measured transfer's source file appears in the run's staging directory
# (after the agent's start and the run's untimed warm-up) to the end: the growth over the transfer.
import glob, json, os, sys, time
app, spaces = int(sys.argv[1]), sys.argv[2]
def children(pid):
    # Each thread lists the children it forked: the agent is started by one of the app's workers.
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{task}/children") as f:
                    found += [int(c) for c in f.read().split()]
            except OSError:
                pass
    except OSError:
        pass
    return found
def rss(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0
def agent_rss():
    total, todo = 0, children(app)
    while todo:
        pid = todo.pop()
        total += rss(pid)
        todo += children(pid)
    return total
app0, agent0, app_peak, agent_peak, seen = rss(app), None, 0, 0, False
at_transfer = None  # [app, agent, app peak, agent peak] from the measured transfer's start
deadline = time.time() + 600
while time.time() < deadline:
    a, g = rss(app), agent_rss()
    app_peak = max(app_peak, a)
    if g:
        seen = True
        agent0 = g if agent0 is None else agent0
        agent_peak = max(agent_peak, g)
        if at_transfer is None and glob.glob(f"{spaces}/run-*/source-*-measured-1"):
            at_transfer = [a, g, a, g]
        if at_transfer:
            at_transfer[2], at_transfer[3] = max(at_transfer[2], a), max(at_transfer[3], g)
    elif seen:
        break
    time.sleep(0.1)
t = at_transfer or [0, 0, 0, 0]
print(json.dumps({"app0": app0, "appPeak": app_peak, "agent0": agent0 or 0, "agentPeak": agent_peak,
                  "appT": t[0], "agentT": t[1], "appPeakT": t[2], "agentPeakT": t[3], "seenTransfer": at_transfer is not None}))
PY
RSSPID=$!
sleep 0.5
run rss "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[]},\"files\":{\"sizes\":[{\"bytes\":$RSS_BYTES,\"n\":1}],\"warmups\":0,\"bulkThresholdBytes\":$((RSS_BYTES + 1))},\"floor\":{\"enabled\":false}}}" >/dev/null
wait $RSSPID || true
fi

echo
cat "$WORK/loads" 2>/dev/null || true
python3 - "$WORK" "$BULK" "$SANDBOX" "$STREAM" <<'PY'
import csv, json, math, os, sys
work, bulk_p, sandbox_p, stream_p = sys.argv[1:5]
def load(path):
    try:
        return json.load(open(path)) if path and os.path.exists(path) else None
    except ValueError:  # a floor that failed wrote nothing
        return None
bulk, sandbox, stream = load(bulk_p), load(sandbox_p), load(stream_p)
bare, rss = load(f"{work}/stream.json"), load(f"{work}/rss.json")
def samples(result_path):
    """The run's measured, successful samples: {metric: {block: [ns…]}} and {metric: [ns…]}."""
    blocks, whole = {}, {}
    path = result_path and result_path.replace("/result-", "/samples-").replace(".json", ".csv")
    if not path or not os.path.exists(path):
        return blocks, whole
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["phase"] != "measured" or row["ok"] != "true" or row.get("level"):
                continue
            ns = int(row["ns"])
            whole.setdefault(row["metric"], []).append(ns)
            if row.get("block"):
                blocks.setdefault(row["metric"], {}).setdefault(int(row["block"]), []).append(ns)
    return blocks, whole
def rank(values, p):  # nearest rank, as stats/Percentiles
    t = sorted(values)
    return t[max(0, math.ceil(len(t) * p / 100) - 1)]
def paired(blocks, a, bs):
    """Block-paired ratio of medians, a ÷ (sum of bs' medians), with its 95% CI (stats/PairedRatio's method)."""
    if a not in blocks or any(b not in blocks for b in bs):
        return None
    common = sorted(set(blocks[a]).intersection(*(set(blocks[b]) for b in bs)))
    d = [math.log(rank(blocks[a][i], 50) / sum(rank(blocks[b][i], 50) for b in bs)) for i in common]
    k = len(d)
    if k == 0:
        return None
    walsh = sorted((d[i] + d[j]) / 2 for i in range(k) for j in range(i, k))
    m = len(walsh)
    est = walsh[(m - 1) // 2] if m % 2 else (walsh[m // 2 - 1] + walsh[m // 2]) / 2
    # T+'s exact null distribution: subsets of ranks 1..k by their sum.
    counts = [1] + [0] * m
    for r in range(1, k + 1):
        for t in range(m, r - 1, -1):
            counts[t] += counts[t - r]
    total, tail, t_crit = 2 ** k, 0, None
    for t in range(m, -1, -1):  # smallest t with P(T+ ≥ t) ≤ α/2
        if (tail + counts[t]) / total > 0.025:
            break
        tail += counts[t]
        t_crit = t
    if t_crit is None:
        return math.exp(est), 0.0, math.inf, k
    c = m + 1 - t_crit
    return math.exp(est), math.exp(walsh[c - 1]), math.exp(walsh[m - c]), k
pb, pw = samples(bulk_p)
sb, sw = samples(sandbox_p)
def whole(w, metric, p):
    return rank(w[metric], p) if metric in w else None
def tail(w, metric):
    return div(whole(w, metric, 99), whole(w, metric, 50))
def hyper(path):
    h = load(path)
    if not h:
        return None, None
    t = sorted(h["results"][0]["times"])
    at = lambda p: t[max(0, -(-len(t) * p // 100) - 1)] * 1e9  # nearest rank
    return at(50), at(99)
cp, _ = hyper(f"{work}/cp.json")
def metric(result, name):
    if result:
        for m in result["metrics"]:
            if m["metric"] == name:
                return m
    return None
def fig(result, name, key="p50Ns"):
    m = metric(result, name)
    return m[key] if m and m.get(key) is not None else None
add = lambda a, b: a + b if a is not None and b is not None else None
div = lambda a, b: a / b if a is not None and b else None
ms = lambda ns: "" if ns is None else f"{ns/1e6:.3f} ms"
both = lambda w, a, b: add(whole(w, a, 50), whole(w, b, 50))
print("block-paired ratios of medians from one interleaved run each (Space's block median ÷ its floor's, same round), 95% CI:")
print(f"{'ratio':64} {'ratio':>7} {'95% CI':>17} {'blocks':>6} {'target':>7}")
for name, blocks, a, bs, goal in (
        ("exec true / (hyperfine -N true + bare TCP ping)", pb, "exec.true", ["floor.hyperfine.true", "floor.grpc.noop"], 1.25),
        ("exec sh -c true / (hyperfine -N 'sh -c true' + bare TCP ping)", pb, "exec.sh_c", ["floor.hyperfine.sh_c", "floor.grpc.noop"], 1.25),
        ("no-op / bare ping, TCP (process)", pb, "exec.noop", ["floor.grpc.noop"], 1.10),
        ("no-op / bare ping, unix socket (sandbox)", sb, "exec.noop", ["floor.grpc.noop"], 1.10)):
    r = paired(blocks, a, bs)
    if r is None:
        print(f"{name:64} {'':>7} {'(no such run or series)':>17}")
        continue
    ratio, lo, hi, k = r
    ci = f"[{lo:.2f}, {hi:.2f}]" if math.isfinite(hi) else "(unbounded: < 6 blocks)"
    verdict = "met" if hi <= goal else ("NOT met" if lo > goal else "undecided (the CI holds the target)")
    print(f"{name:64} {ratio:7.2f} {ci:>17} {k:6d} {'≤'+str(goal):>7} {verdict}")
print()
rows = [
    ("exec true (whole run) / (hyperfine true + bare TCP ping), same run", whole(pw, "exec.true", 50), both(pw, "floor.hyperfine.true", "floor.grpc.noop"), 1.25),
    ("no-op p99/p50 ÷ bare TCP ping p99/p50 (process)", tail(pw, "exec.noop"), tail(pw, "floor.grpc.noop"), 1.5),
    ("no-op p99/p50 ÷ bare unix ping p99/p50 (sandbox)", tail(sw, "exec.noop"), tail(sw, "floor.grpc.noop"), 1.5),
    ("exec true p99/p50 ÷ hyperfine true p99/p50", tail(pw, "exec.true"), tail(pw, "floor.hyperfine.true"), 1.5),
    ("100 MiB upload, stream lane / bare stream, same hashing", fig(stream, "file.upload.100MiB"), bare and bare["uploadP50Ns"], 1.25),
    ("100 MiB download, stream lane / bare stream, same hashing", fig(stream, "file.download.100MiB"), bare and bare["downloadP50Ns"], 1.25),
    ("100 MiB upload, bulk lane / cp + openssl SHA-256", fig(bulk, "file.upload.100MiB"), cp, 1.25),
    ("100 MiB download, bulk lane / cp + openssl SHA-256", fig(bulk, "file.download.100MiB"), cp, 1.25),
]
print(f"{'ratio (p50 unless said)':64} {'ours':>12} {'floor':>12} {'ratio':>7} {'target':>7}")
for name, ours, floor, goal in rows:
    ratio = div(ours, floor)
    is_ratio = "p99/p50" in name
    o = f"{ours:.2f}" if is_ratio and ours is not None else ms(ours)
    f = f"{floor:.2f}" if is_ratio and floor is not None else ms(floor)
    verdict = "" if ratio is None else ("met" if ratio <= goal else "NOT met")
    print(f"{name:64} {o:>12} {f:>12} {'' if ratio is None else f'{ratio:7.2f}':>7} {'≤'+str(goal):>7} {verdict}")
print()
for kind, result in (("process", bulk), ("sandbox", sandbox)):
    ready = fig(result, "space.ready")
    print(f"{kind + ' ready time p50':64} {ms(ready):>12} {'':>12} {'':>7} {'≤ 400 ms':>7} "
          + ("" if ready is None else "met" if ready <= 400e6 else "NOT met"))
if rss:
    if rss.get("seenTransfer"):
        growth = (rss["appPeakT"] - rss["appT"]) + (rss["agentPeakT"] - rss["agentT"])
        print(f"{'app + agent RSS growth, 512 MiB up and down (stream lane)':64} {growth/1024:9.1f} MiB {'':>12} {'':>7} {'< 64 MiB':>7} "
              + ("met" if growth < 64 * 1024 else "NOT met"))
        print(f"  (from the measured transfer's start: app {rss['appT']//1024} → {rss['appPeakT']//1024} MiB, agent {rss['agentT']//1024} → {rss['agentPeakT']//1024} MiB)")
    whole = (rss["appPeak"] - rss["app0"]) + (rss["agentPeak"] - rss["agent0"])
    print(f"{'  the same from the agent JVM’s first sight (its start and warm-up too)':64} {whole/1024:9.1f} MiB")
    print(f"  (app {rss['app0']//1024} → {rss['appPeak']//1024} MiB, agent {rss['agent0']//1024} → {rss['agentPeak']//1024} MiB, KiB from /proc/PID/status VmRSS)")
PY
