#!/usr/bin/env bash
# Runs every benchmark script in bench/ against the build in $1 (default build/).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
for b in "$here"/bench-*.sh; do
  [ -e "$b" ] || continue
  echo "== $(basename "$b")"
  bash "$b" "$build"
done
