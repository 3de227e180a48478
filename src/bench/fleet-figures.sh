#!/usr/bin/env bash
# The figures of docs/fleet.md: a server and three workers started from the jar, on a fresh
# database of a real PostgreSQL, then pgbench on the same tables for the database's own ceiling.
#   PGHOST=127.0.0.1 PGUSER=spacebench PGPASSWORD=spacebench src/bench/fleet-figures.sh
# Needs target/spacebench.jar (./mvnw -B -q -DskipTests package), psql, pgbench, curl, and a role
# that may create databases. Prints the figures; everything it started is stopped and dropped at exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=${JAR:-target/spacebench.jar}
PORT=${PORT:-18105}
LONG_N=${LONG_N:-200000}
: "${PGHOST:?set PGHOST}" "${PGUSER:?set PGUSER}" "${PGPASSWORD:?set PGPASSWORD}"
export PGHOST PGUSER PGPASSWORD PGPORT=${PGPORT:-5432}
db="spacebench_fleet_figures_$$"
work="$(mktemp -d)"
token="fleet-figures-token-$$-0123456789abcdef"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  dropdb --if-exists "$db" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
createdb "$db"
# CHECK_BATCHES=1 (root, local server): log this database's statements, to see the batches as PostgreSQL got them.
if [ -n "${CHECK_BATCHES:-}" ]; then
  env -u PGHOST -u PGUSER -u PGPASSWORD runuser -u postgres -- psql -q -d postgres -c "ALTER DATABASE $db SET log_statement = 'all'"
fi
sql() { psql -qAt -d "$db" -c "$1"; }

common=(--spring.datasource.url="jdbc:postgresql://$PGHOST:$PGPORT/$db" --spring.datasource.username="$PGUSER"
        --spring.datasource.password="$PGPASSWORD" --spacebench.space.container.cli=/nonexistent
        --spacebench.space.vm.qemu=/nonexistent)
SPACEBENCH_API_TOKEN="$token" java -jar "$JAR" --server.port="$PORT" --spacebench.worker.enabled=false "${common[@]}" \
  --spacebench.spaces.root="$work/server-spaces" --spacebench.space.checks-root="$work/server-checks" >"$work/server.log" 2>&1 &
pids+=($!)
until curl -sf "http://127.0.0.1:$PORT/actuator/health" >/dev/null; do sleep 1; done
for i in 0 1 2; do
  java -jar "$JAR" worker --testbed "fig-$i" "${common[@]}" --spacebench.spaces.root="$work/w$i-spaces" \
    --spacebench.space.checks-root="$work/w$i-checks" >"$work/w$i.log" 2>&1 &
  pids+=($!)
done
until [ "$(curl -s "http://127.0.0.1:$PORT/api/workers" | grep -o '"kinds":\[[^]]*"process"' | wc -l)" -eq 3 ]; do sleep 1; done
echo "server and three workers up: $(curl -s "http://127.0.0.1:$PORT/api/workers" | grep -o '"testbed":"[^"]*"' | tr '\n' ' ')"

post() {
  curl -sf -H "Authorization: Bearer $token" -H 'Content-Type: application/json' "http://127.0.0.1:$PORT/api/runs" -d "$1" \
    | grep -o '"id":[0-9]*' | head -1 | cut -d: -f2
}
await_done() {
  until [ "$(sql "SELECT count(*) FROM run WHERE status IN ('QUEUED','RUNNING')")" -eq 0 ]; do sleep 1; done
}
plan() { echo "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\"],\"n\":$1,\"warmups\":0,\"agentWarmupCalls\":10},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}"; }

# 1. Claim latency: 30 small runs; each worker logs how long its claim took.
for _ in $(seq 1 30); do post "$(plan 20)" >/dev/null; done
await_done
echo "claim latency (SELECT … FOR UPDATE SKIP LOCKED + UPDATE, with the database clock read), ms:"
cat "$work"/w?.log | grep -o 'claimed run [0-9]* .* in [0-9.]* ms' | awk '{print $(NF-1)}' | sort -n \
  | awk '{a[NR]=$1} END {printf "  n %d, min %.1f, median %.1f, p95 %.1f, max %.1f\n", NR, a[1], a[int((NR+1)/2)], a[int(NR*0.95+0.5)], a[NR]}'
echo "queue wait (created → started; includes the workers' 500 ms poll), ms:"
sql "SELECT round(min(ms)), round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)), round(max(ms)) FROM
       (SELECT extract(epoch FROM started_at - created_at) * 1000 AS ms FROM run) w" | sed 's/^/  min|median|max /'
echo "claims per worker: $(sql "SELECT string_agg(worker || ' ' || c, ', ') FROM (SELECT worker, count(*) c FROM run GROUP BY worker ORDER BY worker) x")"

# 2. Samples inserted per second: three long runs at once, one per testbed.
before=$(sql "SELECT count(*) FROM sample")
for i in 0 1 2; do post "{\"testbed\":\"fig-$i\",$(plan "$LONG_N" | cut -c2-)" >/dev/null; done
await_done
sql "SELECT count(*) - $before AS samples,
            round(extract(epoch FROM max(finished_at) - min(started_at))::numeric, 1) AS seconds,
            round((count(*) - $before) / extract(epoch FROM max(finished_at) - min(started_at))) AS per_second
     FROM sample s JOIN run r ON r.id = s.run_id WHERE r.plan LIKE '%\"n\":$LONG_N%'" \
  | awk -F'|' '{printf "three workers measuring at once: %d samples in %s s = %d samples/s inserted\n", $1, $2, $3}'

# 3. Database bytes per 1,000 samples (table, its TOAST and indexes).
sql "SELECT pg_total_relation_size('sample'), count(*), round(pg_total_relation_size('sample') * 1000.0 / count(*)) FROM sample" \
  | awk -F'|' '{printf "sample table: %d bytes for %d samples = %d bytes per 1,000 samples\n", $1, $2, $3}'

if [ -n "${CHECK_BATCHES:-}" ]; then
  log=$(ls -t /var/log/postgresql/postgresql-*-main.log | head -1)
  echo "sample inserts as PostgreSQL received them (statements, rows per statement):"
  grep -a "$db" "$log" | grep -ao 'insert into sample .*' | awk -F'\\),\\(' '{print NF}' | sort -n | uniq -c | sort -rn | head -5 | sed 's/^/  /'
fi

# 4. The database's ceiling, without the app: pgbench, 3 clients, 10 s each.
run_id=$(sql "SELECT min(id) FROM run")
cat >"$work/insert.sql" <<SQL
INSERT INTO sample (id, run_id, metric, iteration, phase, ns, bytes, ok)
SELECT nextval('sample_seq'), $run_id, 'exec.noop', g, 'measured', 100000 + g, 0, true FROM generate_series(1, 500) g;
SQL
echo "pgbench, 500-sample inserts (one batch as the app sends it), 3 clients:"
pgbench -n -c 3 -j 3 -T 10 -f "$work/insert.sql" "$db" 2>/dev/null | grep -E '^(latency average|tps)' | sed 's/^/  /'
# Queued runs of a kind no worker makes, for claims alone.
sql "INSERT INTO run (id, status, kind, space_spec, plan, created_at, cancel_requested, progress_done, progress_total)
     SELECT nextval('run_seq'), 'QUEUED', 'pgbench', '{}', '{}', now() + g * interval '1 millisecond', false, 0, 0 FROM generate_series(1, 100000) g"
cat >"$work/claim.sql" <<'SQL'
BEGIN;
SELECT CURRENT_TIMESTAMP;
SELECT id FROM run WHERE status = 'QUEUED' AND kind IN ('pgbench') AND (testbed IS NULL OR testbed = 'bench')
  ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED \gset
UPDATE run SET status = 'RUNNING', worker = 'bench', testbed = 'bench', started_at = now(), lease_until = now() + interval '30 s' WHERE id = :id;
COMMIT;
SQL
echo "pgbench, claims (the app's claim statements), 3 clients:"
pgbench -n -c 3 -j 3 -T 10 -f "$work/claim.sql" "$db" 2>/dev/null | grep -E '^(latency average|tps)' | sed 's/^/  /'
