# The fleet's Redis made locally where no registry gives the public `redis` image (npm run images:build --bases
# debian): Debian's Redis 7 on the Debian base, listening on port 6379 of every address without persistence (it
# holds rate-limit buckets, concurrency slots and circuit marks, all of which may be lost), `redis-cli` for the
# health check.
ARG BASE_IMAGE=localhost/debian:bookworm-slim
FROM ${BASE_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends redis-server \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin
USER redis
EXPOSE 6379
CMD ["redis-server", "--bind", "0.0.0.0", "::", "--protected-mode", "no", "--save", "", "--appendonly", "no"]
