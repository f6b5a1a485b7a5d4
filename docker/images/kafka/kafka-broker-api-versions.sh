#!/bin/sh
# The health check of docker/compose.yaml (as in the public apache/kafka image): lists the broker's API versions.
exec java -Xmx64m -Dlog4j2.configurationFile=/opt/kafka/config/log4j2.properties -cp '/opt/kafka/libs/*' \
  org.apache.kafka.tools.BrokerApiVersionsCommand "$@"
