#!/usr/bin/env bash
# Phase monitoring (seed 003): the overhead of `pmuscope phase` live on the phases
# workload against the same workload unmonitored, and against `perf record` sampling
# the same event at the same period (the peer), run in turn, median of RUNS wall times
# each, at the default settings and at a 1 ms sample period; then the engine's own cost
# per interval (bench_phase_cost). The thesis's goal: below 1% over unmonitored.
# usage: bench-phase.sh [BUILD]   (env RUNS, default 7)
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
runs=${RUNS:-7}
w=("$build/workloads/phases" --repeat 4)
ns() { date +%s%N; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

measure() { # label, sample period in ns of cpu-clock, pmuscope options...
  local label=$1 period=$2
  shift 2
  local base=() mon=() peer=()
  for _ in $(seq "$runs"); do
    t0=$(ns); "${w[@]}" >/dev/null; t1=$(ns)
    "$build/pmuscope" phase -q -c "$period" "$@" -o /dev/null -- "${w[@]}" >/dev/null; t2=$(ns)
    perf record -q -e cpu-clock -c "$period" -o "$tmp/perf.data" "${w[@]}" >/dev/null 2>&1; t3=$(ns)
    base+=($((t1 - t0))); mon+=($((t2 - t1))); peer+=($((t3 - t2)))
  done
  b=$(printf '%s\n' "${base[@]}" | median)
  m=$(printf '%s\n' "${mon[@]}" | median)
  p=$(printf '%s\n' "${peer[@]}" | median)
  awk -v l="$label" -v b="$b" -v m="$m" -v p="$p" 'BEGIN {
    printf "  %s\n    unmonitored %7.1f ms, pmuscope phase %7.1f ms (overhead %+.1f%%), perf record %7.1f ms (%+.1f%%); ratio pmuscope/perf %.3f\n",
      l, b / 1e6, m / 1e6, 100 * (m / b - 1), p / 1e6, 100 * (p / b - 1), m / p }'
}

echo "phase monitoring overhead on phases --repeat 4, median of $runs runs each"
measure "defaults without a PMU (cpu-clock every 0.1 ms, 10 ms task-clock intervals)" 100000
measure "cpu-clock every 1 ms, 100 ms intervals" 1000000 -I 100000000
measure "defaults with --grow 2 --max-interval 16" 100000 --grow 2
"$build/bench/bench_phase_cost"
