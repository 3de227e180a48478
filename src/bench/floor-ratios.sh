#!/usr/bin/env bash
# Measures Spacebench against its bare floor on this machine and prints issue 10's ratios, measured
# in one go (lower is better; 1.0 = nothing above the floor).
#
#   src/bench/floor-ratios.sh            # builds the jar if needed; takes several minutes
#   N=300 FILE_N=10 src/bench/floor-ratios.sh
#   PARTS="stream rss" src/bench/floor-ratios.sh   # only some parts (process sandbox stream cp rss);
#                                                  # the rows of the others stay empty
#
# Honest floors (issue 10, section 4):
#   - the no-op floor is a bare grpc-java ping on the Space's own transport: TCP loopback for the
#     process kind, a unix socket for the sandbox kind (`spacebench.jar floor ping tcp|unix`), to a
#     server in a JVM of its own started as the agent is (same JVM options and class-data archive);
#   - the exec floors are `hyperfine -N true` and `hyperfine -N 'sh -c true'` (N runs) plus the
#     bare ping on the same transport;
#   - the stream floor is a bare grpc-java stream of the same bytes with the same SHA-256 hashing
#     on both sides (`spacebench.jar floor stream BYTES N W hash`);
#   - the bulk floor is cp plus one SHA-256 pass with the CPU's SHA instructions (openssl dgst),
#     not coreutils sha256sum.
# The Space figures come from Spacebench runs on a fresh app; each floor is measured right after
# the run it is compared with. The load average is printed with every run: compare within one go.
# This is a benchmark, not a test: it prints, it does not assert.
set -euo pipefail
cd "$(dirname "$0")/../.."

N=${N:-300}
FILE_N=${FILE_N:-10}
READY_N=${READY_N:-5}
BYTES=$((100 * 1024 * 1024))
RSS_BYTES=$((512 * 1024 * 1024))
WARM=${WARM:-2000}
PARTS=${PARTS:-process sandbox stream cp rss}
part() { [[ " $PARTS " == *" $1 "* ]]; }
JAR=${JAR:-target/spacebench.jar}
[ -f "$JAR" ] || ./mvnw -B -q -DskipTests package
for tool in hyperfine openssl curl python3; do
  command -v $tool >/dev/null || { echo "$tool is needed (Debian: apt-get install $tool)" >&2; exit 2; }
done

WORK=$(mktemp -d /tmp/spacebench-ratios-XXXXXX)
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

load() { cut -d' ' -f1-3 /proc/loadavg; }
source src/bench/runs.sh
run() { # $1 = label, $2 = JSON body; prints the finished run's result.json path
  local id
  echo "[$1] load $(load)" >> "$WORK/loads"
  id=$(post_run "$2")
  await_run "$id" || exit 1
  curl -sf "$BASE/api/runs/$id/result.json" > "$WORK/result-$id.json"
  echo "$WORK/result-$id.json"
}
hf() { # $1 = output json, $2 = command: hyperfine -N, N runs
  hyperfine -N --runs "$N" --warmup 20 --export-json "$1" "$2" >/dev/null 2>&1
}

BULK="" SANDBOX="" STREAM=""
if part process; then
echo "exec, ready and the bulk lane, process Space (run 1) …" >&2
BULK=$(run process "{\"space\":{\"kind\":\"process\"},\"plan\":{\"spaces\":$READY_N,\"exec\":{\"metrics\":[\"noop\",\"true\",\"sh_c\"],\"n\":$N},\"files\":{\"sizes\":[{\"bytes\":$BYTES,\"n\":$FILE_N}]}}}")
echo "  its floors: bare TCP ping, hyperfine true and sh -c true …" >&2
# A floor that fails (e.g. its first connect past the deadline on a loaded host) leaves its rows empty.
java -jar "$JAR" floor ping tcp "$N" "$WARM" > "$WORK/ping-tcp.json" || echo "  (bare TCP ping failed: its rows stay empty)" >&2
hf "$WORK/hf-true.json" true
hf "$WORK/hf-shc.json" "sh -c true"
fi

if part sandbox; then
echo "no-op and ready, sandbox Space (run 2) …" >&2
if SANDBOX=$(run sandbox "{\"space\":{\"kind\":\"sandbox\"},\"plan\":{\"spaces\":$READY_N,\"exec\":{\"metrics\":[\"noop\"],\"n\":$N},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}"); then
  java -jar "$JAR" floor ping unix "$N" "$WARM" > "$WORK/ping-unix.json" || echo "  (bare unix ping failed: its rows stay empty)" >&2
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
import json, os, sys
work, bulk_p, sandbox_p, stream_p = sys.argv[1:5]
def load(path):
    try:
        return json.load(open(path)) if path and os.path.exists(path) else None
    except ValueError:  # a floor that failed wrote nothing
        return None
bulk, sandbox, stream = load(bulk_p), load(sandbox_p), load(stream_p)
ping_tcp, ping_unix = load(f"{work}/ping-tcp.json"), load(f"{work}/ping-unix.json")
bare, rss = load(f"{work}/stream.json"), load(f"{work}/rss.json")
def metric(result, name):
    if result:
        for m in result["metrics"]:
            if m["metric"] == name:
                return m
    return None
def fig(result, name, key="p50Ns"):
    m = metric(result, name)
    return m[key] if m and m.get(key) is not None else None
def hyper(path):
    h = load(path)
    if not h:
        return None, None
    t = sorted(h["results"][0]["times"])
    at = lambda p: t[max(0, -(-len(t) * p // 100) - 1)] * 1e9  # nearest rank
    return at(50), at(99)
hf_true, hf_true99 = hyper(f"{work}/hf-true.json")
hf_shc, _ = hyper(f"{work}/hf-shc.json")
cp, _ = hyper(f"{work}/cp.json")
tcp50 = ping_tcp and ping_tcp["p50Ns"]; tcp99 = ping_tcp and ping_tcp["p99Ns"]
unix50 = ping_unix and ping_unix["p50Ns"]; unix99 = ping_unix and ping_unix["p99Ns"]
add = lambda a, b: a + b if a is not None and b is not None else None
div = lambda a, b: a / b if a is not None and b else None
ms = lambda ns: "" if ns is None else f"{ns/1e6:.3f} ms"
rows = [
    ("exec true / (hyperfine -N true + bare TCP ping)", fig(bulk, "exec.true"), add(hf_true, tcp50), 1.15),
    ("exec sh -c true / (hyperfine -N 'sh -c true' + bare TCP ping)", fig(bulk, "exec.sh_c"), add(hf_shc, tcp50), 1.15),
    ("no-op / bare ping, TCP (process)", fig(bulk, "exec.noop"), tcp50, 1.10),
    ("no-op / bare ping, unix socket (sandbox)", fig(sandbox, "exec.noop"), unix50, 1.10),
    ("no-op p99/p50 ÷ bare TCP ping p99/p50 (process)", div(fig(bulk, "exec.noop", "p99Ns"), fig(bulk, "exec.noop")), div(tcp99, tcp50), 1.5),
    ("no-op p99/p50 ÷ bare unix ping p99/p50 (sandbox)", div(fig(sandbox, "exec.noop", "p99Ns"), fig(sandbox, "exec.noop")), div(unix99, unix50), 1.5),
    ("exec true p99/p50 ÷ hyperfine true p99/p50", div(fig(bulk, "exec.true", "p99Ns"), fig(bulk, "exec.true")), div(hf_true99, hf_true), 1.5),
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
