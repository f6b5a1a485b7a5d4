#!/usr/bin/env bash
# Makes sure the machine's Redis answers on 127.0.0.1:6379, starting it the way the machine does if stopped.
# Prints REDIS_URL=... Redis is the machine's own service: services-down leaves it running.
source "$(dirname "$0")/lib.sh"
ready() { [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = "PONG" ]; }
if ! ready; then
  command -v redis-server >/dev/null || fail "redis: not running on 127.0.0.1:6379 and redis-server is not installed"
  log "redis: starting the machine's redis-server"
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis \
    --logfile /var/log/redis/ci.log >&2 || fail "redis: redis-server did not start"
  wait_for redis 30 ready
fi
echo "REDIS_URL=redis://127.0.0.1:6379"
