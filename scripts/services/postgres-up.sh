#!/usr/bin/env bash
# Makes sure the machine's PostgreSQL answers on 127.0.0.1:5432 (starting its cluster if stopped) and prints
# its URL. Idempotent. Used by CI and by the persistence tests' PostgreSQL runs.
set -euo pipefail
url="${TEST_DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/test}"
ready() { pg_isready -q -h 127.0.0.1 -p 5432 >/dev/null 2>&1; }
if ! ready; then
  version="$(ls /etc/postgresql 2>/dev/null | head -n 1)"
  if [ -z "$version" ]; then
    echo "postgres-up: PostgreSQL is not running on 127.0.0.1:5432 and no cluster is installed under /etc/postgresql" >&2
    exit 1
  fi
  pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2
  for _ in $(seq 1 60); do ready && break; sleep 0.5; done
  ready || { echo "postgres-up: PostgreSQL did not become ready within 30 s" >&2; exit 1; }
fi
psql "$url" -qtAc 'select 1' >/dev/null || { echo "postgres-up: cannot connect to $url" >&2; exit 1; }
echo "$url"
