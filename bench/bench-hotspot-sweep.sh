#!/usr/bin/env bash
# Wall time of `pmuscope hotspot --sweep PERIODS -- hotspots` (valgrind's one pass for the
# truth, the recordings beside it, the analysis) against one plain callgrind run
# (`valgrind --tool=callgrind`, its default options) of the same command: the peer a
# sweep cannot avoid. Goal: a ratio of at most 1.2. RUNS pairs, each a callgrind run and a
# sweep in turn (the order alternates, so that neither always follows the other); every
# pair's times and ratio are printed, then the medians.
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

now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
callgrind() {
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" --log-file="$tmp/cg.log" "${cmd[@]}" >/dev/null
}
sweep() { "$build/pmuscope" hotspot --sweep "$periods" -o "$tmp/sweep.txt" -- "${cmd[@]}" >/dev/null; }
timed() { local t0; t0=$(now); "$@"; echo "$t0 $(now)" | awk '{ print $2 - $1 }'; }

echo "hotspot --sweep $periods on ${wargs[*]} against one plain callgrind run, $runs pairs"
for ((i = 1; i <= runs; i++)); do
  if ((i % 2)); then
    v=$(timed callgrind); s=$(timed sweep)
  else
    s=$(timed sweep); v=$(timed callgrind)
  fi
  echo "$v" >>"$tmp/valgrind"
  echo "$s" >>"$tmp/sweep"
  echo "$s $v" | awk '{ print $1 / $2 }' >>"$tmp/ratio"
  printf '  pair %d: callgrind %6.2f s, sweep %6.2f s, ratio %.3f\n' "$i" "$v" "$s" "$(tail -1 "$tmp/ratio")"
done
printf 'median: callgrind %.2f s, sweep %.2f s, ratio of the pairs %.3f (goal: at most 1.2)\n' \
  "$(median <"$tmp/valgrind")" "$(median <"$tmp/sweep")" "$(median <"$tmp/ratio")"
