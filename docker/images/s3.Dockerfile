# The fleet's S3 server made locally where no registry gives the public `minio/minio` image (npm run images:build
# --bases debian): S3Proxy 4.1 (Maven Central; it verifies SigV4 signatures as S3 does) with its filesystem backend
# on Debian's OpenJDK 17 JRE. It keeps the MinIO conventions docker/compose.yaml relies on: MINIO_ROOT_USER and
# MINIO_ROOT_PASSWORD are the access key and secret, `server /data` serves the objects kept in /data on port 9000,
# and `mc ready local` (a small script here, not MinIO's client) answers the health check. Its build context is
# docker/images/s3 with the S3Proxy jar fetched beside it (images:build does both in a temporary directory).
ARG BASE_IMAGE=localhost/debian:bookworm-slim
FROM ${BASE_IMAGE}
RUN mkdir -p /usr/share/man/man1 \
 && apt-get update \
 && apt-get install -y --no-install-recommends openjdk-17-jre-headless curl \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && useradd --system --uid 10003 --home-dir /data s3 \
 && mkdir -p /data /opt/s3proxy \
 && chown s3:s3 /data
COPY s3proxy.jar /opt/s3proxy/s3proxy.jar
COPY s3-entrypoint.sh /opt/s3proxy/s3-entrypoint.sh
COPY mc /usr/local/bin/mc
USER s3
EXPOSE 9000
ENTRYPOINT ["/opt/s3proxy/s3-entrypoint.sh"]
CMD ["server", "/data"]
