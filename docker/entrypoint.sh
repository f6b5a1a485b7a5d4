#!/bin/sh
# The image's entry point (after tini): runs one app, named by the first argument or by APP.
#   gts-entrypoint gateway            -> node dist/apps/gateway/src/main.js
#   gts-entrypoint cli keys list ...  -> the administration CLI with its arguments
set -eu
# GTS_HOME: where dist/ is (/app in the image; tests point it at a copy of the runtime's files).
cd "${GTS_HOME:-/app}"
app="${APP:-}"
case "${1:-}" in
  '' | -*) ;;
  *) app="$1"; shift ;;
esac
case "$app" in
  '' | *[!a-z-]*)
    echo "gts-entrypoint: name the app as the first argument or in APP (one of: $(ls dist/apps | tr '\n' ' '))" >&2
    exit 2
    ;;
esac
if [ ! -f "dist/apps/$app/src/main.js" ]; then
  echo "gts-entrypoint: unknown app '$app' (one of: $(ls dist/apps | tr '\n' ' '))" >&2
  exit 2
fi
exec node "dist/apps/$app/src/main.js" "$@"
