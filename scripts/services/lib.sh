# Shared helpers of the service scripts: state under .services/, pids, waiting with clear errors.
# shellcheck shell=bash
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STATE="${SERVICES_DIR:-$REPO/.services}"
mkdir -p "$STATE"

log() { echo "$*" >&2; }
fail() { log "$*"; exit 1; }

# alive NAME: true when the process recorded for NAME runs.
alive() { [ -f "$STATE/$1.pid" ] && kill -0 "$(cat "$STATE/$1.pid")" 2>/dev/null; }

# port_open PORT: true when something accepts connections on 127.0.0.1:PORT.
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# wait_for NAME SECONDS COMMAND...: polls COMMAND until it succeeds; fails fast if NAME's process died.
wait_for() {
  local name="$1" seconds="$2"; shift 2
  local deadline=$(( $(date +%s) + seconds ))
  until "$@"; do
    if [ -f "$STATE/$name.pid" ] && ! alive "$name"; then
      log "$name: the process exited during start-up; last lines of $STATE/$name.log:"
      tail -n 30 "$STATE/$name.log" >&2 || true
      exit 1
    fi
    [ "$(date +%s)" -lt "$deadline" ] || fail "$name: not ready after ${seconds}s (see $STATE/$name.log)"
    sleep 0.5
  done
}
