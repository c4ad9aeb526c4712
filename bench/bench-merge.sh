#!/usr/bin/env bash
# Merging a fleet's profiles: 1000 pprof files (copies of 10 recordings of the hotspots
# workload that pmuscope record --pprof wrote) merged by bench_merge (pms_merge, as
# `pmuscope report FILE...`) and by go tool pprof -top on the same files; median of 3
# wall times each, profiles per second and the ratio. PMS_BENCH_PROFILES changes the 1000.
# usage: bench-merge.sh [BUILD]
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
n=${PMS_BENCH_PROFILES:-1000}
dir=$(mktemp -d "${TMPDIR:-/tmp}/pms-bench-merge.XXXXXX")
trap 'rm -rf "$dir"' EXIT
for k in $(seq 0 9); do
    "$build/pmuscope" record -e cpu-clock -c 200000 -o "$dir/r$k.data" --pprof "$dir/r$k.pb.gz" \
        -- "$build/workloads/hotspots" >/dev/null 2>&1
done
mkdir "$dir/fleet"
for i in $(seq 1 "$n"); do cp "$dir/r$((i % 10)).pb.gz" "$dir/fleet/p$i.pb.gz"; done
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
seconds() { # COMMAND...: wall seconds
    local t0 t1
    t0=$(date +%s.%N); "$@" >/dev/null 2>"$dir/err" || { cat "$dir/err" >&2; return 1; }; t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc -l
}
ours=$(for _ in 1 2 3; do seconds "$build/bench/bench_merge" "$dir"/fleet/*.pb.gz; done | median)
theirs=$(for _ in 1 2 3; do HOME=$dir GOCACHE=$dir/gocache seconds go tool pprof -top -symbolize=none \
             "$dir"/fleet/*.pb.gz; done | median)
"$build/bench/bench_merge" "$dir"/fleet/*.pb.gz
printf "%-22s %10s %14s\n" "merging $n profiles" "seconds" "profiles/s"
printf "%-22s %10.3f %14.0f\n" "pmuscope (pms_merge)" "$ours" "$(echo "$n / $ours" | bc -l)"
printf "%-22s %10.3f %14.0f\n" "go tool pprof -top" "$theirs" "$(echo "$n / $theirs" | bc -l)"
printf "ratio (go / pmuscope)  %.2f\n" "$(echo "$theirs / $ours" | bc -l)"
