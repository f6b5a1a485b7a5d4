#!/usr/bin/env bash
# Podman and podman-compose from Debian's packages, as this project's CI (and an operator on Debian) sets them
# up: root, once per machine, idempotent. runc with cgroupfs (crun fails on hybrid cgroups) and no default ulimits (setrlimit is
# refused in some sandboxes). debootstrap makes the local Debian base where no registry answers.
set -euo pipefail
# podman-compose runs docker/compose.yaml (`npm run start:containers`).
if ! command -v podman >/dev/null || ! command -v runc >/dev/null || ! command -v debootstrap >/dev/null ||
  ! command -v podman-compose >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc debootstrap podman-compose >/dev/null
fi
mkdir -p /etc/containers
if [ ! -f /etc/containers/containers.conf ]; then
  cat > /etc/containers/containers.conf <<'CONF'
[containers]
default_ulimits = []
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
CONF
fi
podman version --format 'podman {{.Client.Version}}'
