#!/usr/bin/env bash
# perf's own recordings replay to the quality of the live monitor: three recordings by perf
# record of a workload of four 500 ms phases (cpu-clock every 4 ms, task-clock every 28 ms:
# the live defaults), replayed by `phase --interval-event task-clock` at the defaults, each
# against the schedule the workload wrote; the median adjusted Rand index over all
# labelled intervals at least 0.85 (phase_defaults.sh checks the live monitor on the same
# workload). The index moves in steps of about 0.037, an interval of the 74 labelled
# otherwise each: under two busy loops 1, 0.982, 0.945 and 0.908 (7 of 32 recordings), and
# 0.873, the step below 0.9, in 1 of 32 (and in 2 of 32 live runs: phase_defaults.sh): a
# median of three at 0.9 fails about 1 run in 100 (3 x 0.05^2), more when the low runs
# come together; at 0.85 it takes two intervals more than 0.908 in two of the three. perf record counts task-clock per CPU: each thread's intervals are 7 of its own
# samples. perf's -c sets every event's period, so `-e cpu-clock -c 4000000 -e task-clock -c
# 28000000` samples both every 28 ms: one sample an interval, which the summary says, with
# the per-event form to use instead.
# ctest-labels: serial
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$PMUSCOPE
W=("$PMS_WORKLOADS/phases" --sequence ABCD --ms 500 --repeat 1)

for i in 1 2 3; do
  perf record -q -k mono -e cpu-clock/period=4000000/ -e task-clock/period=28000000/ -o "$tmp/$i.data" \
    -- "${W[@]}" --trace "$tmp/$i.trace" >/dev/null 2>"$tmp/perf.err" || { cat "$tmp/perf.err"; exit 1; }
  $P phase --interval-event task-clock --truth "$tmp/$i.trace" --csv="$tmp/$i.csv" --json -o "$tmp/$i.json" "$tmp/$i.data"
  # every interval but each thread's last holds 7 cpu-clock samples: 28 ms / 4 ms
  awk -F, 'NR > 1 { t = $NF; if (last[t] != "" && last[t] != 7) bad++; last[t] = $5 } END { exit bad != 0 }' "$tmp/$i.csv" ||
    { echo "FAIL: recording $i: intervals not of 7 samples"; exit 1; }
  jq -r '"recording '"$i"': \(.summary.intervals) intervals, \(.summary.phases) phases, adjusted Rand index \(.summary.adjusted_rand_index * 1000 | round / 1000) (threshold \(.settings.threshold_percent)%)"' "$tmp/$i.json"
  jq .summary.adjusted_rand_index "$tmp/$i.json" >>"$tmp/aris"
done
median=$(sort -g "$tmp/aris" | sed -n 2p)
echo "median adjusted Rand index of the replays: $median"
awk -v a="$median" 'BEGIN { exit !(a >= 0.85) }' || { echo "FAIL: median $median below 0.85"; exit 1; }

# Without an interval event, a recording of cpu-clock at a fixed period is cut as live:
# 28 ms of samples an interval (7 here).
perf record -q -k mono -e cpu-clock -c 4000000 -o "$tmp/cpu.data" -- "$PMS_WORKLOADS/phases" --sequence AB --ms 100 \
  --repeat 1 >/dev/null 2>&1
$P phase -q "$tmp/cpu.data" | grep -q "^summary of .*cpu.data (perf.data, 7 samples per interval)"

# The -c trap: both events every 28 ms.
perf record -q -k mono -e cpu-clock -c 4000000 -e task-clock -c 28000000 -o "$tmp/c.data" \
  -- "$PMS_WORKLOADS/phases" --sequence AB --ms 100 --repeat 1 >/dev/null 2>&1
[ "$(perf report -i "$tmp/c.data" --header-only 2>/dev/null | grep -c 'sample_freq } = 28000000')" = 2 ]
$P phase -q --interval-event task-clock "$tmp/c.data" >"$tmp/c.txt"
grep -q "note: each interval holds one sample: the recording's sample and interval events have the same period" \
  "$tmp/c.txt" || { echo "FAIL: no note on one sample an interval"; cat "$tmp/c.txt"; exit 1; }
grep -q -- "-e cpu-clock/period=4000000/ -e task-clock/period=28000000/" "$tmp/c.txt"
echo "phase_perf: ok"
