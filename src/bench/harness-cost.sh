#!/usr/bin/env bash
# What Spacebench's own harness costs per round trip, in measures a loaded host does not bend
# (issue 10): CPU time of the agent, of the commands it ran and of the client; context switches and
# the threads woken; heap bytes allocated; agent GCs inside the loops; and the agent's start (CPU
# time and classes loaded until READY). The same for the bare floors: a ProcessBuilder loop and a
# bare gRPC ping in one JVM, and hyperfine's own CPU time for `true` and `sh -c true`.
#
#   src/bench/harness-cost.sh                      # N=2000 round trips per loop, W=2000 warm-up pings
#   N=5000 src/bench/harness-cost.sh -XX:TieredStopAtLevel=1   # extra agent JVM options, for A/B
#   PARTS=loop LOOP_N=20000 src/bench/harness-cost.sh           # only the app's CPU per iteration (below)
#
# Then (issue 28) what the app and its worker spend while a run's measured loop goes on, now that
# the loop runs in a driver process: a real app from the jar runs a process Space's exec noop and
# true loops (LOOP_N each, no floor, sequential); every POLL_S (1) seconds the run's progress is read from the API
# (the poll is the dashboard's load, so its cost counts) and /proc/PID/stat's utime + stime of the
# app JVM, the driver and the agent with it; over each metric's measured loop (first to last poll
# inside it) each process's CPU ÷ the iterations done in between. Target: app ≤ 0.1 ms per iteration.
#
# Wall-clock figures (p50) are printed too but only mean something on a quiet host; the load
# average is printed before and after. A benchmark, not a test: it prints, it asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."

N=${N:-2000}
W=${W:-2000}
JAR=${JAR:-target/spacebench.jar}
[ -f "$JAR" ] || ./mvnw -B -q -DskipTests package

PARTS=${PARTS:-floor loop}
part() { [[ " $PARTS " == *" $1 "* ]]; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)   ($(nproc) CPUs)"
if part floor; then
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
fi

if part loop; then
LOOP_N=${LOOP_N:-20000}
POLL_S=${POLL_S:-1}
APPWORK=$(mktemp -d /tmp/spacebench-appcpu-XXXXXX)
source src/bench/runs.sh
APP=""
trap 'kill $APP 2>/dev/null; wait $APP 2>/dev/null; rm -rf "$APPWORK" ${WORK:+"$WORK"}' EXIT
start_app "$APPWORK"
# Sequential: one metric's loop at a time, so that each window holds that metric's iterations only
# (an interleaved run's blocks take turns, and each block starts with the agent's full collection).
ID=$(post_run "{\"space\":{\"kind\":\"process\"},\"plan\":{\"order\":\"sequential\",\"exec\":{\"metrics\":[\"noop\",\"true\"],\"n\":$LOOP_N},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}")
echo "run $ID: exec noop and true, n $LOOP_N each, process Space; app pid $APP (load $(cut -d' ' -f1-3 /proc/loadavg))"
python3 - "$BASE" "$ID" "$APP" "$POLL_S" <<'PY'
import collections, json, os, re, sys, time, urllib.request
base, run, app, poll = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
tick = os.sysconf("SC_CLK_TCK")
def cpu(pid):  # utime + stime, in ms; None when gone
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000.0 / tick
    except (OSError, IndexError, ValueError):
        return None
def cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""
def descendants(pid):
    parents = {}
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open(f"/proc/{p}/stat") as f:
                    parents.setdefault(int(f.read().rsplit(")", 1)[1].split()[1]), []).append(int(p))
            except (OSError, IndexError, ValueError):
                pass
    found, todo = [], [pid]
    while todo:
        for c in parents.get(todo.pop(), []):
            found.append(c)
            todo.append(c)
    return found
def threads(pid):  # the app's threads by name, numbers dropped ("C2 CompilerThre", "http-nio-127.0.") -> CPU ms
    out = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for t in tids:
        try:
            with open(f"/proc/{pid}/task/{t}/stat") as f:
                s = f.read()
            fields = s.rsplit(")", 1)[1].split()
            name = re.sub(r"[-#]?\d+$", "", s[s.index("(") + 1:s.rindex(")")])
            out[int(t)] = (name, (int(fields[11]) + int(fields[12])) * 1000.0 / tick)
        except (OSError, IndexError, ValueError):
            pass
    return out
known = {}
def find(main):  # the app's descendant running main; /proc is walked again only once it is gone
    pid = known.get(main)
    if pid is None or main not in cmdline(pid):
        pid = known[main] = next((p for p in descendants(app) if main in cmdline(p)), None)
    return pid
windows = {}  # metric -> [first (iteration, cpu...), last (iteration, cpu...)]
while True:
    with urllib.request.urlopen(f"{base}/api/runs/{run}") as r:
        view = json.load(r)
    driver, agent = find("dev.spacebench.driver.DriverMain"), find("dev.spacebench.agent.AgentMain")
    now = (cpu(app), cpu(driver) if driver else None, cpu(agent) if agent else None)
    p = view.get("progress") or {}
    if view["status"] != "RUNNING":
        break
    if p.get("phase") == "measured" and p.get("iteration") and None not in now:
        w = windows.setdefault(p["metric"], [None, None])
        point = (p["iteration"], *now, threads(app))
        if w[0] is None:
            w[0] = point
        w[1] = point
    time.sleep(poll)
print(f"run {run} {view['status']}; CPU per measured iteration (utime + stime from /proc/PID/stat, {tick} ticks/s):")
print(f"{'metric':12} {'iterations':>10} {'app JVM':>12} {'driver':>12} {'agent':>12}   target: app ≤ 0.100 ms")
for metric, (a, b) in windows.items():
    n = b[0] - a[0]
    if n <= 0:
        print(f"{metric:12} (the loop ended between two polls: no window)")
        continue
    per = [(b[i] - a[i]) / n for i in (1, 2, 3)]
    print(f"{metric:12} {n:10d} {per[0]:9.3f} ms {per[1]:9.3f} ms {per[2]:9.3f} ms   app "
          + ("met" if per[0] <= 0.1 else "NOT met"))
    # Where the app's share goes: its threads' CPU over the same window, by name (JIT compilers, the
    # run's worker thread that reads the pipe and writes the database, the HTTP threads serving the poll, GC).
    split = collections.Counter()
    for tid, (name, ms) in b[4].items():
        split[name] += ms - a[4].get(tid, (name, 0.0))[1]
    print("    app threads: " + ", ".join(f"{name} {ms / n * 1000:.0f} µs" for name, ms in split.most_common(6) if ms > 0))
PY
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
