# Starting a run and waiting for its end, for the bench scripts (sourced; needs BASE and
# SPACEBENCH_API_TOKEN). No python3 here: the poll runs once a second while the run's timed regions
# go on, and where python3 is a pyenv shim (as on our VM) one start costs about 0.6 s of CPU and
# 9,400 page faults, a third of a 2-vCPU host. curl and grep cost about 0.02 s. A run's JSON starts
# with its id and status.

post_run() { # $1 = the run's JSON body; prints the new run's id
  curl -sf -X POST "$BASE/api/runs" -H "Authorization: Bearer $SPACEBENCH_API_TOKEN" \
       -H 'Content-Type: application/json' -d "$1" | grep -o '"id":[0-9]*' | head -1 | cut -d: -f2
}

await_run() { # $1 = run id; returns once it SUCCEEDED, fails with its status otherwise
  local status
  while :; do
    status=$(curl -sf "$BASE/api/runs/$1" | grep -o '"status":"[A-Z_]*"' | head -1 | cut -d'"' -f4)
    case $status in
      QUEUED|RUNNING) sleep 1 ;;
      SUCCEEDED) return 0 ;;
      *) echo "run $1 ended ${status:-(no status)}" >&2; return 1 ;;
    esac
  done
}

start_app() { # $1 = the app's directory (database, Spaces, app.log); sets APP (its pid) and BASE, exports the API token
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  # State changes need the API token (docs/security.md); this app gets one of its own.
  export SPACEBENCH_API_TOKEN=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')
  java -jar "$JAR" --server.port="$port" --spring.datasource.url="jdbc:h2:file:$1/db" \
       --spacebench.spaces.root="$1/spaces" > "$1/app.log" 2>&1 &
  APP=$!
  BASE=http://127.0.0.1:$port
  # A loaded host can take minutes to start the app: wait up to STARTUP_WAIT seconds (default 600).
  for _ in $(seq 1 "${STARTUP_WAIT:-600}"); do curl -sf "$BASE/actuator/health" >/dev/null && break; sleep 1; done
}
