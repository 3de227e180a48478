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
