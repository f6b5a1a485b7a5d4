#!/usr/bin/env bash
# Podman's Docker-compatible API on a unix socket, for testcontainers (and any Docker client): started in the
# background when nothing answers there yet; prints the DOCKER_HOST to use. Root (the system socket path).
#   export DOCKER_HOST="$(bash scripts/containers/podman-socket.sh)"
#   export TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1
# Ryuk's image cannot be pulled without a registry; mapped ports are reached on loopback.
set -euo pipefail
socket="${PODMAN_SOCKET:-/run/podman/podman.sock}"
answers() { curl -sf --unix-socket "$socket" http://d/_ping >/dev/null 2>&1; }
if ! answers; then
  mkdir -p "$(dirname "$socket")"
  # From /: the service outlives the checkout that started it, and a deleted working directory makes every
  # later container start fail ("write child: broken pipe").
  cd /
  nohup podman system service --time=0 "unix://$socket" </dev/null >/dev/null 2>&1 &
  for _ in $(seq 1 50); do answers && break; sleep 0.2; done
  answers || { echo "podman-socket: nothing answers on $socket" >&2; exit 1; }
fi
echo "unix://$socket"
