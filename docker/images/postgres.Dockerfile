# The fleet's PostgreSQL made locally where no registry gives the public `postgres` image (npm run images:build
# --bases debian): Debian's PostgreSQL 15 on the Debian base. It keeps the public image's conventions that
# docker/compose.yaml relies on: POSTGRES_PASSWORD, POSTGRES_USER (postgres) and POSTGRES_DB create the
# cluster's role and database on the first start, the data live in /var/lib/postgresql/data (PGDATA), port
# 5432, and `pg_isready` answers the health check.
ARG BASE_IMAGE=localhost/debian:bookworm-slim
FROM ${BASE_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-15 \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && mkdir -p /var/lib/postgresql/data /var/run/postgresql \
 && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
ENV PGDATA=/var/lib/postgresql/data PATH=/usr/lib/postgresql/15/bin:$PATH
USER postgres
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]
CMD ["postgres"]
