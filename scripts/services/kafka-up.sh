#!/usr/bin/env bash
# A single-node Kafka 4 broker in KRaft mode from Maven Central jars, on 127.0.0.1:19092. Idempotent: a
# broker this script started and that still runs is reused. Prints KAFKA_BROKERS=... on stdout.
# Another broker beside it (a test's own, e2e/support/private-kafka.ts): SERVICES_DIR (its state: data, pid,
# log), KAFKA_PORT and KAFKA_CONTROLLER_PORT, and KAFKA_LIB_DIR (where the jars are, default under its state).
source "$(dirname "$0")/lib.sh"
PORT="${KAFKA_PORT:-19092}"
CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-19093}"
DIR="$STATE/kafka"
LIB="${KAFKA_LIB_DIR:-$DIR/lib}"
mkdir -p "$DIR/data"

if alive kafka && port_open "$PORT"; then
  echo "KAFKA_BROKERS=127.0.0.1:$PORT"
  exit 0
fi
port_open "$PORT" && fail "kafka: port $PORT is taken by a process this script did not start"
command -v java >/dev/null || fail "kafka: java is not installed"
command -v mvn >/dev/null || fail "kafka: mvn is not installed (the broker's jars come from Maven Central)"

if [ ! -f "$LIB/kafka_2.13-4.4.0.jar" ]; then
  log "kafka: fetching the broker's jars from Maven Central"
  (cd "$REPO/scripts/services/kafka" && mvn -q -B dependency:copy-dependencies -DoutputDirectory="$LIB" -DincludeScope=runtime) >&2 \
    || fail "kafka: could not fetch the jars with mvn"
fi

cat > "$DIR/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$PORT,CONTROLLER://127.0.0.1:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$DIR/data
num.partitions=3
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=true
# The log cleaner's dedupe buffer defaults to 128 MiB of heap, half of what the broker gets here: with it,
# start-up died with OutOfMemoryError now and then. Our compacted topics (consumer offsets) are tiny.
log.cleaner.dedupe.buffer.size=16777216
PROPS
LOG4J="-Dlog4j2.configurationFile=$REPO/scripts/services/kafka/log4j2.properties"
[ -f "$DIR/cluster-id" ] || node -e "process.stdout.write(require('crypto').randomBytes(16).toString('base64url').slice(0,22))" > "$DIR/cluster-id"
# Formatted once: a restart on the same data skips a JVM start. The id is random base64url and may begin with
# '-', hence `--cluster-id=`, which no parser reads as an option.
if [ ! -f "$DIR/data/meta.properties" ]; then
  java $LOG4J -cp "$LIB/*" kafka.tools.StorageTool format --cluster-id="$(cat "$DIR/cluster-id")" -c "$DIR/server.properties" --ignore-formatted >"$STATE/kafka.log" 2>&1 \
    || { tail -n 20 "$STATE/kafka.log" >&2; fail "kafka: formatting the storage failed"; }
fi

log "kafka: starting the broker"
nohup java -Xms128m -Xmx512m $LOG4J -cp "$LIB/*" kafka.Kafka "$DIR/server.properties" >>"$STATE/kafka.log" 2>&1 &
echo $! > "$STATE/kafka.pid"
wait_for kafka 60 port_open "$PORT"
# An open port is not a ready broker: wait until the admin API lists topics.
wait_for kafka 60 node "$REPO/scripts/services/kafka-ready.mjs" "127.0.0.1:$PORT"
echo "KAFKA_BROKERS=127.0.0.1:$PORT"
