#!/usr/bin/env bash
# olr's speed in ns per sample per counter: wm and opt, with error statistics (the CLI's
# default) and without, on a generated series and on streams recorded from the bundled
# workloads (perf record -e '{cpu-clock,page-faults,context-switches}:S' -c 20000), beside
# a plain pass that only reads the samples and zstd -1/-3 of the same bytes
# (bench/bench_olr_speed.c: CPU time, median of 7 runs). Speed is never asserted in tests.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
streams=()
record() { # name, workload...
  local name=$1; shift
  if perf record -q -e '{cpu-clock,page-faults,context-switches}:S' -c 20000 -o "$tmp/$name.data" \
       -- "$@" > /dev/null 2>&1; then
    streams+=("$tmp/$name.data")
  else
    echo "perf record of $name failed: that stream is left out"
  fi
}
record sizes "$build/workloads/sizes" 24
record phases "$build/workloads/phases" --units 250 --repeat 2
"$build/bench/bench_olr_speed" --generate 1000000 "${streams[@]}"
