#!/usr/bin/env bash
# One container Space measured through each channel (issue 27): p50 and p99 of `sh -c true` and
# MiB/s (at the p50) of a 16 MiB upload and download through the agent, SSH and container-exec,
# in one Spacebench run; then the floors of the last two, measured with hyperfine on a container
# made as the container kind makes it (the host's /usr read-only, the host's sshd published on
# 127.0.0.1 only): `hyperfine -N 'podman exec CTR true'` and `hyperfine -N 'ssh … true'` over an
# OpenSSH ControlMaster connection (and the same with `sh -c true`).
#
#   src/bench/channels.sh                 # builds the jar if needed; several minutes
#   N=100 FILE_N=5 RUNTIME=runsc src/bench/channels.sh
#
# Needs root (podman's default network publishes the SSH port), podman, runc, openssh-server and
# openssh-client, hyperfine, curl, python3. What each timed region holds: docs/channels.md.
# This is a benchmark, not a test: it prints, it does not assert. Everything it starts is removed at exit.
set -euo pipefail
cd "$(dirname "$0")/../.."

N=${N:-50}
FILE_N=${FILE_N:-5}
WARM=${WARM:-100}
RUNTIME=${RUNTIME:-runc}
BYTES=$((16 * 1024 * 1024))
JAR=${JAR:-target/spacebench.jar}
[ -f "$JAR" ] || ./mvnw -B -q -DskipTests package
for tool in podman hyperfine curl python3 ssh ssh-keygen /usr/sbin/sshd; do
  command -v $tool >/dev/null || { echo "$tool is needed (Debian: podman runc hyperfine curl python3 openssh-client openssh-server)" >&2; exit 2; }
done

WORK=$(mktemp -d /tmp/spacebench-channels-XXXXXX)
CTR=spacebench-channels-$$
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export SPACEBENCH_API_TOKEN=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')
APP=""
cleanup() {
  ssh -S "$WORK/ctl" -O exit x 2>/dev/null || true
  podman rm -f -t 0 "$CTR" >/dev/null 2>&1 || true
  if [ -n "$APP" ]; then kill "$APP" 2>/dev/null; wait "$APP" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "uptime: $(uptime)"
java -jar "$JAR" --server.port="$PORT" --spring.datasource.url="jdbc:h2:file:$WORK/db" \
     --spacebench.spaces.root="$WORK/spaces" --spacebench.space.checks-root="$WORK/checks" > "$WORK/app.log" 2>&1 &
APP=$!
BASE=http://127.0.0.1:$PORT
for _ in $(seq 1 "${STARTUP_WAIT:-600}"); do curl -sf "$BASE/actuator/health" >/dev/null && break; sleep 1; done
source src/bench/runs.sh

echo "one run, container Space ($RUNTIME), channels agent, ssh, container-exec: sh -c true n=$N, 16 MiB n=$FILE_N …" >&2
ID=$(post_run "{\"space\":{\"kind\":\"container\",\"runtime\":\"$RUNTIME\"},\"channels\":[\"agent\",\"ssh\",\"container-exec\"],
  \"plan\":{\"exec\":{\"metrics\":[\"sh_c\"],\"n\":$N,\"warmups\":3,\"agentWarmupCalls\":$WARM},
            \"files\":{\"sizes\":[{\"bytes\":$BYTES,\"n\":$FILE_N}],\"warmups\":1},\"floor\":{\"enabled\":false}}}")
[ -n "$ID" ] || { echo "the run was refused:" >&2; curl -s "$BASE/api/kinds" >&2; exit 1; }
await_run "$ID" || { tail -20 "$WORK/app.log" >&2; exit 1; }
curl -sf "$BASE/api/runs/$ID/result.json" > "$WORK/result.json"
echo "uptime after the run: $(uptime)"

echo "floors: a container as the kind makes it, with the host's sshd published on 127.0.0.1 …" >&2
root="$WORK/rootfs" server="$WORK/server"
mkdir -p "$root"/{usr,etc,tmp,proc,dev,sys,run} "$server"
for l in bin lib lib64 sbin; do ln -s "usr/$l" "$root/$l"; done
ssh-keygen -q -t ecdsa -N '' -f "$server/host_key"
ssh-keygen -q -t ecdsa -N '' -f "$WORK/client_key"
cp "$WORK/client_key.pub" "$server/authorized_keys"
SSH_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$server/sshd_config" <<EOF
ListenAddress 0.0.0.0
Port 22
HostKey $server/host_key
PidFile none
AuthorizedKeysFile $server/authorized_keys
AuthenticationMethods publickey
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
AllowUsers root
PermitRootLogin prohibit-password
StrictModes no
Subsystem sftp internal-sftp
PermitTTY no
UseDNS no
MaxStartups 100
MaxSessions 100
EOF
printf 'root:x:0:0:root:/tmp:%s\nsshd:x:%s:65534::/run/sshd:/usr/sbin/nologin\n' \
  "$(awk -F: '$1=="root"{print $7}' /etc/passwd)" "$(awk -F: '$1=="sshd"{print $3}' /etc/passwd)" > "$WORK/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$WORK/group"
engine=()
net=network=host
[ "$RUNTIME" = runsc ] && engine=(--runtime "$(command -v runsc)" --runtime-flag host-uds=all --runtime-flag "$net")
podman "${engine[@]}" run -d --name "$CTR" --read-only --tmpfs /tmp \
  --ulimit "nofile=$(ulimit -Sn):$(ulimit -Hn)" --ulimit "nproc=$(cat /proc/sys/kernel/pid_max):$(cat /proc/sys/kernel/pid_max)" \
  --publish "127.0.0.1:$SSH_PORT:22" -v /usr:/usr:ro -v "$server:$server:ro" -v "$WORK/passwd:/etc/passwd:ro" \
  -v "$WORK/group:/etc/group:ro" --rootfs "$root:O" sleep infinity >/dev/null
podman exec -d "$CTR" sh -c "mkdir -p /run/sshd && exec /usr/sbin/sshd -D -e -f $server/sshd_config"
echo "[127.0.0.1]:$SSH_PORT $(cut -d' ' -f1-2 "$server/host_key.pub")" > "$WORK/known_hosts"
SSH=(ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile="$WORK/known_hosts"
     -o ControlPath="$WORK/ctl" -i "$WORK/client_key" -p "$SSH_PORT" root@127.0.0.1)
for _ in $(seq 1 100); do "${SSH[@]}" -o ControlMaster=yes -o ControlPersist=yes -fN 2>/dev/null && break; sleep 0.1; done
"${SSH[@]}" true || { echo "no ControlMaster connection to the container's sshd" >&2; exit 1; }
hyperfine -N --runs "$N" --warmup 3 --export-json "$WORK/floors.json" \
  "podman exec $CTR true" "podman exec $CTR sh -c true" "${SSH[*]} true" "${SSH[*]} sh -c true" >/dev/null 2>&1
echo "uptime after the floors: $(uptime)"

python3 - "$WORK/result.json" "$WORK/floors.json" "$BYTES" <<'PY'
import json, math, sys
result, floors, size = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
figures = {m["metric"]: m for m in result["metrics"]}
label = f"{size >> 20}MiB"
def ms(ns): return f"{ns / 1e6:9.2f} ms"
def mibs(m): return f"{size / (m['p50Ns'] / 1e9) / 2**20:8.1f} MiB/s" if m and m.get("p50Ns") else "       —     "
print(f"run {result['run']['id']} ({result['run']['status']}), {result['environment']['space'].get('runtime', '')}")
print(f"{'channel':16} {'sh -c true p50':>14} {'p99':>12} {'n':>4}   {'upload '+label:>14} {'download '+label:>16}")
for channel in ("agent", "ssh", "container-exec"):
    prefix = "" if channel == "agent" else f"via.{channel}."
    e = figures.get(prefix + "exec.sh_c")
    up, down = figures.get(f"{prefix}file.upload.{label}"), figures.get(f"{prefix}file.download.{label}")
    print(f"{channel:16} {ms(e['p50Ns']) if e else '—':>14} {ms(e['p99Ns']) if e else '—':>12} {e['n'] if e else 0:>4}   "
          f"{mibs(up):>14} {mibs(down):>16}")
print("floors (hyperfine -N, same host, a container made as the kind makes it; ssh over a ControlMaster connection):")
for r in floors["results"]:
    t = sorted(r["times"])
    rank = lambda p: t[max(1, math.ceil(p * len(t) / 100)) - 1]
    command = r["command"].replace(sys.argv[1].rsplit("/", 1)[0], "$WORK")
    print(f"  {command[:70]:70} p50 {ms(rank(50) * 1e9)}  p99 {ms(rank(99) * 1e9)}  n {len(t)}")
PY
