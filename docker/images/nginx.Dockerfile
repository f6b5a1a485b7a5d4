# The fleet's ingress image made locally where no registry is reachable (npm run images:build --bases debian):
# Debian's nginx on the Debian base, serving /etc/nginx/conf.d/default.conf (docker/ingress/nginx.conf is
# mounted there, as compose mounts it into the registry's nginx image).
ARG BASE_IMAGE=localhost/debian:bookworm-slim
FROM ${BASE_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends nginx-light \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /etc/nginx/sites-enabled/default \
 && ln -sf /dev/stdout /var/log/nginx/access.log \
 && ln -sf /dev/stderr /var/log/nginx/error.log
EXPOSE 80
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
