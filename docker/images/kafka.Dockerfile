# The fleet's Kafka made locally where no registry gives the public `apache/kafka` image (npm run images:build
# --bases debian): Debian's OpenJDK 17 JRE and the Kafka 4.4 jars from Maven Central (kafka/pom.xml). Its build
# context is docker/images/kafka with the jars fetched into `libs/` and scripts/services/kafka/log4j2.properties
# beside it (images:build does all of it in a temporary directory). It keeps the public image's conventions that docker/compose.yaml relies on:
# every KAFKA_<NAME> variable is the broker setting <name> (lower case, `_` as `.`), CLUSTER_ID names the
# cluster (else one is made on the first start), the data live in /var/lib/kafka/data, and
# /opt/kafka/bin/kafka-broker-api-versions.sh answers the health check. A single KRaft node.
ARG BASE_IMAGE=localhost/debian:bookworm-slim
FROM ${BASE_IMAGE}
RUN mkdir -p /usr/share/man/man1 \
 && apt-get update \
 && apt-get install -y --no-install-recommends openjdk-17-jre-headless \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && useradd --system --uid 10002 --home-dir /var/lib/kafka kafka \
 && mkdir -p /opt/kafka/bin /var/lib/kafka/data \
 && chown -R kafka:kafka /var/lib/kafka
COPY libs/ /opt/kafka/libs/
COPY log4j2.properties /opt/kafka/config/log4j2.properties
COPY kafka-entrypoint.sh /opt/kafka/bin/kafka-entrypoint.sh
COPY kafka-broker-api-versions.sh /opt/kafka/bin/kafka-broker-api-versions.sh
USER kafka
# The client port only, as the public image: the controller's 9093 stays inside (Podman's Docker API lists
# every exposed port as a binding, which testcontainers then waits for).
EXPOSE 9092
ENTRYPOINT ["/opt/kafka/bin/kafka-entrypoint.sh"]
