#!/usr/bin/env bash
# Peak memory of `pmuscope report` against perf.data size, next to `perf report` on the
# same files. The files (default 10, 100 and 1000 MB; PMS_BENCH_SIZES="10 100" to change)
# are written by pmuscope's writer (bench_perfdata_gen: 8 processes of the hotspots
# binary, random IPs in its text, 1% kernel samples at 4096 IPs, so the distinct IPs stay
# bounded) and deleted afterwards. Peak RSS from /usr/bin/time (maximum resident set
# size), median of 3 runs.
# usage: bench-report-memory.sh [BUILD]
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
sizes=${PMS_BENCH_SIZES:-10 100 1000}
runs=3
bin=$(realpath "$build/workloads/hotspots")
read -r text_off text_size < <(readelf -lW "$bin" | awk '$1=="LOAD" && / E /{print $2, $5; exit}')
dir=$(mktemp -d "${TMPDIR:-/tmp}/pms-bench-report.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# Prints "peak_kb seconds" of a command, median of $runs runs.
measure() {
    for _ in $(seq $runs); do
        /usr/bin/time -f "%M %e" -o "$dir/time" "$@" >/dev/null 2>"$dir/err" || { cat "$dir/err" >&2; return 1; }
        tail -1 "$dir/time"
    done | sort -n -k1,1 | awk -v n=$runs 'NR==int((n+1)/2)'
}

printf "%8s %10s %14s %14s %10s %12s %12s\n" "file MB" "samples" "pmuscope KB" "perf KB" "mem ratio" "pmuscope s" "perf s"
for mb in $sizes; do
    f="$dir/bench-$mb.data"
    "$build/bench/bench_perfdata_gen" "$f" "$mb" "$bin" "$text_off" "$text_size"
    samples=$("$build/pmuscope" report -i "$f" --json --limit 1 | awk -F': ' '/"samples": [0-9]/{gsub(/,/,"",$2); print $2; exit}')
    read -r pms_kb pms_s < <(measure "$build/pmuscope" report -i "$f" --limit 0)
    read -r perf_kb perf_s < <(measure perf report -i "$f" --stdio --sort sym)
    printf "%8s %10s %14s %14s %10.3f %12s %12s\n" "$mb" "$samples" "$pms_kb" "$perf_kb" \
        "$(echo "$pms_kb / $perf_kb" | bc -l)" "$pms_s" "$perf_s"
    rm -f "$f"
done
echo "mem ratio: pmuscope report peak RSS / perf report peak RSS on the same file (below 1: pmuscope uses less)"
