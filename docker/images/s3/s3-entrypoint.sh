#!/bin/sh
# `server DIR` (MinIO's command line): S3Proxy on port 9000 of every address, its objects in DIR, the access key
# MINIO_ROOT_USER and secret MINIO_ROOT_PASSWORD (both required, as MinIO's are in practice).
set -eu
if [ "${1:-}" != "server" ]; then exec "$@"; fi
dir="${2:-/data}"
: "${MINIO_ROOT_USER:?MINIO_ROOT_USER is required}"
: "${MINIO_ROOT_PASSWORD:?MINIO_ROOT_PASSWORD is required}"
conf=$(mktemp)
cat > "$conf" <<CONF
s3proxy.endpoint=http://0.0.0.0:9000
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=$MINIO_ROOT_USER
s3proxy.credential=$MINIO_ROOT_PASSWORD
jclouds.provider=filesystem
jclouds.filesystem.basedir=$dir
CONF
export LOG_LEVEL="${LOG_LEVEL:-warn}"
exec java ${JAVA_OPTS:--Xmx256m} -jar /opt/s3proxy/s3proxy.jar --properties "$conf"
