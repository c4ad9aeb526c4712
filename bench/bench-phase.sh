#!/usr/bin/env bash
# Phase monitoring (Sembrant's thesis): the overhead of `pmuscope phase` live on the phases
# workload against the same workload unmonitored, and against `perf record` sampling the
# same event at the same period (the peer), run in turn, median of RUNS runs each: wall
# time, and the workload's own CPU time (its task-clock, counted by perf stat around it),
# where the sampling interrupts are paid; and pmuscope's own CPU time (the whole command's
# task-clock less the workload's and perf stat's: startup, the reading thread, the report). At the
# defaults (without a PMU: cpu-clock every 4 ms, intervals of 7 samples) and at the old
# defaults (every 0.1 ms, 10 ms intervals); then the engine's own cost per interval
# (bench_phase_cost). The thesis's goal: below 1%.
# usage: bench-phase.sh [BUILD]   (env RUNS, default 7; WORKLOAD, default "--units 1000 --repeat 2")
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
runs=${RUNS:-7}
read -r -a wargs <<<"${WORKLOAD:---units 1000 --repeat 2}"
w=("$build/workloads/phases" "${wargs[@]}")
ns() { date +%s%N; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
task_ms() { awk -F, '/task-clock/ { print $1 }' "$1"; }
# Runs "$@" around the workload (under perf stat); appends "wall_ns workload_ms own_ms" to $tmp/$label.
timed() {
  local label=$1
  shift
  local t0 t1
  t0=$(ns)
  perf stat -x, -e task-clock -o "$tmp/outer" -- "$@" perf stat -x, -e task-clock -o "$tmp/inner" -- "${w[@]}" \
    >/dev/null 2>&1
  t1=$(ns)
  echo "$((t1 - t0)) $(task_ms "$tmp/inner") $(awk -v o="$(task_ms "$tmp/outer")" -v i="$(task_ms "$tmp/inner")" \
    'BEGIN { print o - i }')" >>"$tmp/$label"
}
col() { awk -v c="$2" '{ print $c }' "$tmp/$1" | median; }

measure() { # label, sample period in ns of cpu-clock, pmuscope options...
  local label=$1 period=$2
  shift 2
  rm -f "$tmp/base" "$tmp/mon" "$tmp/peer"
  for _ in $(seq "$runs"); do
    timed base env
    timed mon "$build/pmuscope" phase -q -e cpu-clock --interval-event task-clock "$@" -o /dev/null --
    timed peer perf record -q -e cpu-clock -c "$period" -o "$tmp/perf.data" --
  done
  awk -v l="$label" -v b="$(col base 1)" -v m="$(col mon 1)" -v p="$(col peer 1)" -v bc="$(col base 2)" \
    -v mc="$(col mon 2)" -v pc="$(col peer 2)" -v own="$(col mon 3)" -v wrap="$(col base 3)" 'BEGIN {
    printf "  %s\n", l
    printf "    wall:         unmonitored %7.1f ms, pmuscope phase %7.1f ms (ratio %.3f), perf record %7.1f ms (ratio %.3f)\n",
      b / 1e6, m / 1e6, m / b, p / 1e6, p / b
    printf "    workload CPU: unmonitored %7.1f ms, pmuscope phase %7.1f ms (ratio %.3f), perf record %7.1f ms (ratio %.3f)\n",
      bc, mc, mc / bc, pc, pc / bc
    printf "    pmuscope itself (startup, reading thread, report): %.1f ms of CPU\n", own - wrap }'
}

echo "phase monitoring overhead on phases ${wargs[*]}, median of $runs runs each (ratio: monitored / unmonitored)"
measure "defaults without a PMU (cpu-clock every 4 ms, intervals of 7 samples = 28 ms of task-clock)" 4000000
measure "old defaults (cpu-clock every 0.1 ms, 10 ms intervals)" 100000 -c 100000 --interval-size 10000000
"$build/bench/bench_phase_cost"
