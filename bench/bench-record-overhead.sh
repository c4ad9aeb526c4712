#!/usr/bin/env bash
# Overhead of `pmuscope record` against `perf record`, on the phases workload, at 1, 10
# and 50 kHz of cpu-clock sampling: wall time of the workload unprofiled, under perf record
# and under pmuscope record, interleaved run by run, median of RUNS (default 5) runs; and
# the CPU time (user + sys of the tool and the workload together), which a machine shared
# with other jobs disturbs less than the wall time.
# perf runs with --no-buildid (pmuscope collects no build ids either) and -q.
# Usage: bench-record-overhead.sh [BUILD_DIR] (default build/)
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
runs=${RUNS:-5}
phases=$build/workloads/phases
pmuscope=$build/pmuscope
command -v perf >/dev/null || { echo "perf is not installed (linux-perf)"; exit 1; }
tmp=$(mktemp -d /tmp/pms-bench-record-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

measure() { # "wall cpu" seconds of "$@" (cpu: user + sys, children included)
    /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@" >/dev/null 2>&1
    awk '{print $1, $2 + $3}' "$tmp/time"
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# Enough repeats of the sequence for about 2 s.
t=$(measure "$phases" --repeat 1 | cut -d' ' -f1)
repeat=$(awk -v t="$t" 'BEGIN {r = int(2 / t + 0.5); print r < 1 ? 1 : r}')
work=("$phases" --repeat "$repeat")
echo "workload: phases --repeat $repeat; $runs runs per cell, medians; overhead = profiled / unprofiled"
printf '%-7s %-5s %9s %9s %11s %10s %13s %15s\n' rate time base_s perf_s pmuscope_s perf_ovh pmuscope_ovh pmuscope/perf
for rate in 1000 10000 50000; do
    : >"$tmp/base"; : >"$tmp/perf"; : >"$tmp/pms"
    for _ in $(seq "$runs"); do
        measure "${work[@]}" >>"$tmp/base"
        measure perf record -q --no-buildid -e cpu-clock -F "$rate" -o "$tmp/perf.data" -- "${work[@]}" >>"$tmp/perf"
        measure "$pmuscope" record -e cpu-clock -F "$rate" -o "$tmp/pms.data" -- "${work[@]}" >>"$tmp/pms"
    done
    for col in 1 2; do
        b=$(cut -d' ' -f$col "$tmp/base" | median); p=$(cut -d' ' -f$col "$tmp/perf" | median)
        m=$(cut -d' ' -f$col "$tmp/pms" | median)
        awk -v r="$rate" -v c="$col" -v b="$b" -v p="$p" -v m="$m" 'BEGIN {
            printf "%-7s %-5s %9.3f %9.3f %11.3f %9.3fx %12.3fx %14.3fx\n", r / 1000 "kHz", c == 1 ? "wall" : "cpu",
                   b, p, m, p / b, m / b, m / p }'
    done
done
# The samples each tool wrote in its last run at the highest rate, for scale.
echo "last 50 kHz run: perf script counts $(perf script -i "$tmp/perf.data" -F ip 2>/dev/null | wc -l) samples" \
     "from perf, $(perf script -i "$tmp/pms.data" -F ip 2>/dev/null | wc -l) from pmuscope"
