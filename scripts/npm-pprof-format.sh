#!/usr/bin/env bash
# Installs the npm package pprof-format (Datadog's pure JavaScript pprof decoder, MIT), a
# second decoder that pmuscope's profiles are checked against, into DIR/node_modules at a
# pinned version with npm's cache in DIR/cache. Idempotent; the tests call it (make test
# on a fresh machine gets it from there). Needs node and npm (scripts/install-deps.sh).
#   scripts/npm-pprof-format.sh DIR
set -euo pipefail
dir=${1:?usage: npm-pprof-format.sh DIR}
version=2.3.2
mkdir -p "$dir"
installed=$(node -e 'try { console.log(require(process.argv[1]).version) } catch (e) {}' \
                 "$dir/node_modules/pprof-format/package.json" 2>/dev/null || true)
[ "$installed" = "$version" ] && exit 0
npm install --prefix "$dir" --cache "$dir/cache" --no-audit --no-fund --no-save --loglevel=error \
    "pprof-format@$version" >&2
