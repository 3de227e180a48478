#!/usr/bin/env bash
# Measures Spacebench against its bare floor on this machine and prints ratios measured in one go.
#
#   src/bench/floor-ratios.sh            # builds the jar if needed; takes a few minutes
#
# Ratios (goal in brackets; lower is better, 1.0 = no overhead above the floor):
#   exec true p50 through a process Space / hyperfine -N true p50          (≤ 1.3)
#   no-op p50 / a bare gRPC ping p50 (same transport, same run)            (≤ 1.2)
#   100 MiB upload and download p50, stream lane / a bare gRPC stream      (≤ 1.25)
#   100 MiB upload and download p50, bulk lane / cp + sha256sum            (≤ 1.4)
# Every figure is a p50. The Space's figures and the hyperfine / bare-ping floors come from the
# same Spacebench run (its floor); the stream and cp floors are measured right after it.
# This is a benchmark, not a test: it prints, it does not assert.
set -euo pipefail
cd "$(dirname "$0")/../.."

N=${N:-300}
FILE_N=${FILE_N:-10}
BYTES=$((100 * 1024 * 1024))
JAR=target/spacebench.jar
[ -f "$JAR" ] || ./mvnw -B -q -DskipTests package
command -v hyperfine >/dev/null || { echo "hyperfine is needed (Debian: apt-get install hyperfine)" >&2; exit 2; }

WORK=$(mktemp -d /tmp/spacebench-ratios-XXXXXX)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# State changes need the API token (README: Security); this app gets one of its own.
export SPACEBENCH_API_TOKEN=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')
java -jar "$JAR" --server.port="$PORT" --spring.datasource.url="jdbc:h2:file:$WORK/db" \
     --spacebench.spaces.root="$WORK/spaces" > "$WORK/app.log" 2>&1 &
APP=$!
trap 'kill $APP 2>/dev/null; wait $APP 2>/dev/null; rm -rf "$WORK"' EXIT
BASE=http://127.0.0.1:$PORT
for _ in $(seq 1 120); do curl -sf "$BASE/actuator/health" >/dev/null && break; sleep 1; done

run() { # $1 = JSON body; prints the finished run's result.json path
  local id status
  id=$(curl -sf -X POST "$BASE/api/runs" -H "Authorization: Bearer $SPACEBENCH_API_TOKEN" -H 'Content-Type: application/json' -d "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  while :; do
    status=$(curl -sf "$BASE/api/runs/$id" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')
    case $status in QUEUED|RUNNING) sleep 2 ;; SUCCEEDED) break ;; *) echo "run $id ended $status" >&2; exit 1 ;; esac
  done
  curl -sf "$BASE/api/runs/$id/result.json" > "$WORK/result-$id.json"
  echo "$WORK/result-$id.json"
}

echo "measuring exec and the bulk lane (run 1) …" >&2
BULK=$(run "{\"plan\":{\"exec\":{\"metrics\":[\"noop\",\"true\"],\"n\":$N},\"files\":{\"sizes\":[{\"bytes\":$BYTES,\"n\":$FILE_N}]}}}")
echo "measuring the stream lane (run 2) …" >&2
STREAM=$(run "{\"plan\":{\"exec\":{\"metrics\":[]},\"files\":{\"sizes\":[{\"bytes\":$BYTES,\"n\":$FILE_N}],\"bulkThresholdBytes\":$((BYTES + 1))},\"floor\":{\"enabled\":false}}}")

echo "measuring a bare gRPC stream of the same bytes …" >&2
java -jar "$JAR" floor stream "$BYTES" "$FILE_N" 1 > "$WORK/stream.json"

echo "measuring cp + sha256sum of the same bytes …" >&2
head -c "$BYTES" /dev/urandom > "$WORK/src.bin"
hyperfine -N --runs "$FILE_N" --warmup 1 --prepare "rm -f $WORK/dst.bin" --export-json "$WORK/cp.json" \
  "sh -c 'cp $WORK/src.bin $WORK/dst.bin && sha256sum $WORK/dst.bin'" >/dev/null

python3 - "$BULK" "$STREAM" "$WORK/stream.json" "$WORK/cp.json" <<'PY'
import json, sys
bulk, stream, bare, cp = (json.load(open(p)) for p in sys.argv[1:5])
def p50(result, metric):
    for m in result["metrics"]:
        if m["metric"] == metric:
            return m["p50Ns"]
    raise SystemExit(f"{metric} missing from result.json")
cp_p50 = sorted(cp["results"][0]["times"])[(len(cp["results"][0]["times"]) + 1) // 2 - 1] * 1e9
rows = [
    ("exec true / hyperfine -N true", p50(bulk, "exec.true"), p50(bulk, "floor.hyperfine.true"), 1.3),
    ("no-op / bare gRPC ping", p50(bulk, "exec.noop"), p50(bulk, "floor.grpc.noop"), 1.2),
    ("100 MiB upload, stream lane / bare gRPC stream", p50(stream, "file.upload.100MiB"), bare["uploadP50Ns"], 1.25),
    ("100 MiB download, stream lane / bare gRPC stream", p50(stream, "file.download.100MiB"), bare["downloadP50Ns"], 1.25),
    ("100 MiB upload, bulk lane / cp + sha256sum", p50(bulk, "file.upload.100MiB"), cp_p50, 1.4),
    ("100 MiB download, bulk lane / cp + sha256sum", p50(bulk, "file.download.100MiB"), cp_p50, 1.4),
]
print(f"{'ratio (p50 / p50)':52} {'ours':>10} {'floor':>10} {'ratio':>7} {'goal':>6}")
for name, ours, floor, goal in rows:
    ratio = ours / floor
    print(f"{name:52} {ours/1e6:8.3f}ms {floor/1e6:8.3f}ms {ratio:7.2f} {'≤'+str(goal):>6} {'met' if ratio <= goal else 'NOT met'}")
PY
