#!/usr/bin/env bash
# An S3-compatible server on 127.0.0.1:19000: S3Proxy 4.1.0 from Maven Central with its filesystem backend.
# Chosen over s3rver (npm) because S3Proxy verifies SigV4 signatures, so presigned-URL tests can prove that a
# wrong size, a wrong content type or an expired URL is refused. Idempotent. Prints the S3_* settings.
source "$(dirname "$0")/lib.sh"
PORT="${S3_PORT:-19000}"
DIR="$STATE/s3proxy"
JAR="$DIR/lib/s3proxy-4.1.0-jar-with-dependencies.jar"
mkdir -p "$DIR/data"

print() {
  echo "S3_ENDPOINT=http://127.0.0.1:$PORT"
  echo "S3_REGION=us-east-1"
  echo "S3_ACCESS_KEY_ID=local-identity"
  echo "S3_SECRET_ACCESS_KEY=local-credential"
  echo "S3_FORCE_PATH_STYLE=true"
}
answers() { [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/")" != "000" ]; }

if alive s3proxy && answers; then print; exit 0; fi
port_open "$PORT" && fail "s3: port $PORT is taken by a process this script did not start"
command -v java >/dev/null || fail "s3: java is not installed"
if [ ! -f "$JAR" ]; then
  log "s3: fetching S3Proxy from Maven Central"
  mvn -q -B dependency:copy -Dartifact=org.gaul:s3proxy:4.1.0:jar:jar-with-dependencies -DoutputDirectory="$DIR/lib" >&2 \
    || fail "s3: could not fetch S3Proxy with mvn"
fi
cat > "$DIR/s3proxy.conf" <<CONF
s3proxy.endpoint=http://127.0.0.1:$PORT
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=local-identity
s3proxy.credential=local-credential
jclouds.provider=filesystem
jclouds.filesystem.basedir=$DIR/data
CONF
log "s3: starting S3Proxy"
LOG_LEVEL=warn nohup java -Xmx256m -jar "$JAR" --properties "$DIR/s3proxy.conf" >"$STATE/s3proxy.log" 2>&1 &
echo $! > "$STATE/s3proxy.pid"
# The root answers 403 once it serves; any HTTP answer means ready.
wait_for s3proxy 60 answers
print
