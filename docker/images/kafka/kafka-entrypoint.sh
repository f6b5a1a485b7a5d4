#!/bin/sh
# A single KRaft node configured from the environment: KAFKA_<NAME>=value becomes `<name>=value` (lower case,
# `_` as `.`), over defaults for one node. The storage is formatted once, with CLUSTER_ID or an id made then.
set -eu
DATA=/var/lib/kafka/data
CONFIG=/var/lib/kafka/server.properties
{
  echo "log.dirs=$DATA"
  echo "node.id=1"
  echo "process.roles=broker,controller"
  echo "listeners=PLAINTEXT://:9092,CONTROLLER://:9093"
  echo "controller.listener.names=CONTROLLER"
  echo "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT"
  echo "controller.quorum.voters=1@localhost:9093"
  echo "num.partitions=3"
  echo "offsets.topic.replication.factor=1"
  echo "transaction.state.log.replication.factor=1"
  echo "transaction.state.log.min.isr=1"
  echo "share.coordinator.state.topic.replication.factor=1"
  echo "share.coordinator.state.topic.min.isr=1"
  echo "log.cleaner.dedupe.buffer.size=16777216"
  env | grep '^KAFKA_' | grep -v '^KAFKA_HEAP_OPTS=' | while IFS='=' read -r name value; do
    echo "$(echo "${name#KAFKA_}" | tr 'A-Z_' 'a-z.')=$value"
  done
} > "$CONFIG"
LOG4J="-Dlog4j2.configurationFile=/opt/kafka/config/log4j2.properties"
if [ ! -f "$DATA/meta.properties" ]; then
  id="${CLUSTER_ID:-$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | cut -c1-22)}"
  java $LOG4J -cp '/opt/kafka/libs/*' kafka.tools.StorageTool format --cluster-id="$id" -c "$CONFIG" \
    --ignore-formatted >/dev/null
fi
exec java ${KAFKA_HEAP_OPTS:--Xms128m -Xmx512m} $LOG4J -cp '/opt/kafka/libs/*' kafka.Kafka "$CONFIG"
