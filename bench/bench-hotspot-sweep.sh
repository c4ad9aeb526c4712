#!/usr/bin/env bash
# Time of `pmuscope hotspot --sweep` over the paper's nine periods against the peer it
# cannot avoid: one callgrind run alone (--dump-instr=yes) of the same command. The
# ratio says what the truth's extra options, the nine sampled runs and the analysis add
# (goal: at most 1.2).
# Median of RUNS (default 3) runs each, side by side. Usage: bench-hotspot-sweep.sh BUILD
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
runs=${RUNS:-3}
cmd=("$build/workloads/hotspots")
periods=64K,128K,256K,512K,1M,2M,4M,8M,16M
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

for ((i = 0; i < runs; i++)); do
  t0=$(now)
  valgrind --tool=callgrind --dump-instr=yes --skip-plt=no --callgrind-out-file="$tmp/cg.out" --log-file="$tmp/cg.log" "${cmd[@]}" >/dev/null
  t1=$(now)
  "$build/pmuscope" hotspot --sweep "$periods" -o "$tmp/sweep.txt" -- "${cmd[@]}" >/dev/null
  t2=$(now)
  echo "$t0 $t1" | awk '{print $2 - $1}' >>"$tmp/valgrind.times"
  echo "$t1 $t2" | awk '{print $2 - $1}' >>"$tmp/sweep.times"
done
v=$(median <"$tmp/valgrind.times")
s=$(median <"$tmp/sweep.times")
printf 'hotspot sweep (9 periods, %s): %.2f s; one callgrind run: %.2f s; ratio %.2f (median of %d)\n' \
  "$(basename "${cmd[0]}")" "$s" "$v" "$(echo "$s $v" | awk '{print $1 / $2}')" "$runs"
