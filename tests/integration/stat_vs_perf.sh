#!/bin/bash
# pmuscope stat against perf stat on the same workload: page-faults within 2%,
# and the -x CSV columns in perf's order (value,unit,event,run time,running %,metric value,metric unit).
# ctest-labels: serial
set -euo pipefail
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

perf stat -x, -o "$tmp/perf.csv" -e task-clock,page-faults -- "$PMS_WORKLOADS/phases" --units 250 >/dev/null
"$PMUSCOPE" stat -x, -o "$tmp/pms.csv" -e task-clock,page-faults -- "$PMS_WORKLOADS/phases" --units 250 >/dev/null

field() { awk -F, -v ev="$2" -v col="$3" '$3 == ev { print $col }' "$1"; }
perf_pf=$(field "$tmp/perf.csv" page-faults 1)
pms_pf=$(field "$tmp/pms.csv" page-faults 1)
echo "page-faults: perf $perf_pf, pmuscope $pms_pf"
awk -v a="$perf_pf" -v b="$pms_pf" 'BEGIN { d = (a > b ? a - b : b - a) / a; exit !(a > 1000 && d <= 0.02) }' ||
    { echo "FAIL: page-faults differ by more than 2%"; exit 1; }

# Same column layout as perf: 7 fields, unit msec on task-clock, 100.00 running.
for f in perf pms; do
    awk -F, '$3 == "task-clock" && ($2 != "msec" || $5 != "100.00" || $7 != "CPUs utilized") { bad = 1 }
             NF != 7 && !/^#/ && NF > 0 { bad = 1 } END { exit bad }' "$tmp/$f.csv" ||
        { echo "FAIL: $f.csv does not have perf's columns"; cat "$tmp/$f.csv"; exit 1; }
done
# task-clock agrees loosely (it is time, so only within 30%)
perf_tc=$(field "$tmp/perf.csv" task-clock 1); pms_tc=$(field "$tmp/pms.csv" task-clock 1)
awk -v a="$perf_tc" -v b="$pms_tc" 'BEGIN { exit !(b > a * 0.7 && b < a * 1.3) }' ||
    { echo "FAIL: task-clock $pms_tc ms against perf's $perf_tc ms"; exit 1; }
echo ok
