#!/usr/bin/env bash
# Wall time of `pmuscope hotspot --sweep PERIODS -- hotspots` (valgrind's one pass for the
# truth, the recordings beside it, the analysis) against one plain callgrind run
# (`valgrind --tool=callgrind`, its default options) of the same command: the peer a
# sweep cannot avoid. Goal: a ratio of at most 1.2. RUNS pairs, each a callgrind run and a
# sweep in turn (the order alternates, so that neither always follows the other); every
# pair's times and ratios are printed, then the medians. Beside the wall time, the CPU time
# (task-clock of the command and every process it starts, `perf stat`), which other jobs on
# the machine change far less: the sweep's CPU holds valgrind's, the recordings' (one run of
# the command for all periods of cpu-clock, randomised (the default) or not; one per period
# of a hardware event) and pmuscope's own. Last measured (README, hotspot): the default
# sweep, randomised, in one run: wall 1.023, CPU 1.130 (7 pairs, load 5); one run per
# randomised period had CPU 1.322.
# usage: bench-hotspot-sweep.sh [BUILD]   (env RUNS, default 5; PERIODS, default 256K,1M,4M;
#        WORKLOAD, default "hotspots")
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
runs=${RUNS:-5}
periods=${PERIODS:-256K,1M,4M}
read -r -a wargs <<<"${WORKLOAD:-hotspots}"
cmd=("$build/workloads/${wargs[0]}" "${wargs[@]:1}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
callgrind=(valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" --log-file="$tmp/cg.log" "${cmd[@]}")
sweep=("$build/pmuscope" hotspot --sweep "$periods" -o "$tmp/sweep.txt" -- "${cmd[@]}")
# "WALL CPU" seconds of a command
timed() {
  local t0 t1
  t0=$(date +%s.%N)
  perf stat -x, -e task-clock -o "$tmp/stat" -- "$@" >/dev/null
  t1=$(date +%s.%N)
  awk -F, -v w="$(echo "$t0 $t1" | awk '{ print $2 - $1 }')" '$3 ~ /^task-clock/ { print w, $1 / 1000 }' "$tmp/stat"
}

echo "hotspot --sweep $periods on ${wargs[*]} against one plain callgrind run, $runs pairs"
for ((i = 1; i <= runs; i++)); do
  if ((i % 2)); then
    read -r v vc < <(timed "${callgrind[@]}"); read -r s sc < <(timed "${sweep[@]}")
  else
    read -r s sc < <(timed "${sweep[@]}"); read -r v vc < <(timed "${callgrind[@]}")
  fi
  echo "$v" >>"$tmp/valgrind"
  echo "$s" >>"$tmp/sweep"
  echo "$s $v" | awk '{ print $1 / $2 }' >>"$tmp/ratio"
  echo "$vc" >>"$tmp/valgrind_cpu"
  echo "$sc" >>"$tmp/sweep_cpu"
  echo "$sc $vc" | awk '{ print $1 / $2 }' >>"$tmp/ratio_cpu"
  printf '  pair %d: callgrind %6.2f s (CPU %5.2f s), sweep %6.2f s (CPU %5.2f s), ratio %.3f (CPU %.3f)\n' \
    "$i" "$v" "$vc" "$s" "$sc" "$(tail -1 "$tmp/ratio")" "$(tail -1 "$tmp/ratio_cpu")"
done
printf 'median: callgrind %.2f s, sweep %.2f s, ratio of the pairs %.3f (goal: at most 1.2)\n' \
  "$(median <"$tmp/valgrind")" "$(median <"$tmp/sweep")" "$(median <"$tmp/ratio")"
printf 'median CPU: callgrind %.2f s, sweep %.2f s, ratio of the pairs %.3f\n' \
  "$(median <"$tmp/valgrind_cpu")" "$(median <"$tmp/sweep_cpu")" "$(median <"$tmp/ratio_cpu")"
