#!/usr/bin/env bash
# Throughput of `pmuscope report` against `perf report` on the same perf.data from the page
# cache: one file of about PMS_BENCH_MB megabytes (default 600) written by bench_perfdata_gen
# (8 processes of the hotspots binary, samples with IP, TID, TIME, PERIOD and id, a
# FINISHED_ROUND every 4096 samples, so pmuscope's reader does its time ordering), read once
# to be cached, then the two reports run in turn PMS_BENCH_RUNS times (default 5),
# interleaved so that both see the same machine. Prints each tool's median wall and CPU
# (user + system) seconds and MB/s by each, and the ratio pmuscope / perf of both. On a
# machine shared with other work the wall time follows the load; CPU time is the
# throughput one thread gives.
# usage: bench-report-throughput.sh [BUILD]
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
mb=${PMS_BENCH_MB:-600}
runs=${PMS_BENCH_RUNS:-5}
bin=$(realpath "$build/workloads/hotspots")
read -r text_off text_size < <(readelf -lW "$bin" | awk '$1=="LOAD" && / E /{print $2, $5; exit}')
dir=$(mktemp -d "${TMPDIR:-/tmp}/pms-bench-throughput.XXXXXX")
trap 'rm -rf "$dir"' EXIT
export HOME=$dir # perf's build-id cache stays out of it
f=$dir/bench.data
"$build/bench/bench_perfdata_gen" "$f" "$mb" "$bin" "$text_off" "$text_size"
bytes=$(stat -c %s "$f")
cat "$f" > /dev/null # into the page cache

# Appends "wall cpu" of one run of a command to a file.
timed() {
    local out=$1
    shift
    /usr/bin/time -f "%e %U %S" -o "$dir/time" "$@" > /dev/null 2> "$dir/err" || { cat "$dir/err" >&2; exit 1; }
    awk '{printf "%s %.2f\n", $1, $2 + $3}' "$dir/time" >> "$out"
}
for _ in $(seq "$runs"); do
    timed "$dir/pmuscope" "$build/pmuscope" report -i "$f" --limit 0
    timed "$dir/perf" perf report -i "$f" --stdio --sort sym
done
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
printf "%-9s %9s %8s %8s %11s %10s\n" tool "file MB" "wall s" "cpu s" "MB/s (wall)" "MB/s (cpu)"
size_mb=$(echo "$bytes / 1048576" | bc -l)
for tool in pmuscope perf; do
    wall=$(cut -d' ' -f1 "$dir/$tool" | median)
    cpu=$(cut -d' ' -f2 "$dir/$tool" | median)
    printf "%-9s %9.0f %8.2f %8.2f %11.0f %10.0f\n" "$tool" "$size_mb" "$wall" "$cpu" "$(echo "$size_mb / $wall" | bc -l)" \
        "$(echo "$size_mb / $cpu" | bc -l)"
    eval "${tool}_wall=$wall ${tool}_cpu=$cpu"
done
printf "ratio pmuscope / perf (MB/s, medians of %d interleaved runs each): wall %.2f, cpu %.2f\n" "$runs" \
    "$(echo "$perf_wall / $pmuscope_wall" | bc -l)" "$(echo "$perf_cpu / $pmuscope_cpu" | bc -l)"
