#!/usr/bin/env bash
# Phase classification quality at the defaults: `pmuscope phase` live on the phases workload
# (without a PMU: cpu-clock every 4 ms, intervals of 7 samples, similarity threshold 80%),
# its labels against the schedule the workload writes (adjusted Rand index over all
# labelled intervals, each labelled by the phase most of its samples fell in); RUNS runs,
# each printed, then the median. The goal: 0.9 or more (tests/integration/phase_defaults.sh
# asserts it on single runs of the same workloads).
# usage: bench-phase-ari.sh [BUILD]   (env RUNS, default 5; WORKLOAD, default the workload's
#        defaults, ABBCBD twice at 200 ms; OPTIONS, extra pmuscope phase options)
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
runs=${RUNS:-5}
read -r -a wargs <<<"${WORKLOAD:-}"
read -r -a opts <<<"${OPTIONS:-}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "pmuscope phase ${opts[*]} on phases ${wargs[*]}: adjusted Rand index against the schedule, $runs runs"
for i in $(seq "$runs"); do
  "$build/pmuscope" phase "${opts[@]}" --truth "$tmp/trace" --json -o "$tmp/run.json" -q -- \
    "$build/workloads/phases" "${wargs[@]}" --trace "$tmp/trace" >/dev/null
  jq -r '"  run '"$i"': \(.summary.adjusted_rand_index * 1000 | round / 1000) (\(.summary.intervals) intervals, threshold \(.settings.threshold_percent)%, transition share \(.summary.transition_share * 1000 | round / 10)%)"' "$tmp/run.json"
  jq -r .summary.adjusted_rand_index "$tmp/run.json" >>"$tmp/ari"
done
sort -g "$tmp/ari" | awk '{ v[NR] = $1 } END { printf "median adjusted Rand index: %.3f\n", v[int((NR + 1) / 2)] }'
