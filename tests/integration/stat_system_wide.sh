#!/bin/bash
# stat -a, -C CPUS and -A (also with -I and -r) against perf stat in the same test: the same
# lines (CPU column, unit, event, metric unit) in CSV, in perf's JSON lines and in the plain
# table's header; -A --wide's column names against perf's -A lines;
# system-wide task-clock holds at least the workload's own CPU time; -C 0 counts CPU 0 only.
# Where the kernel refuses system-wide events (perf_event_paranoid without the privilege),
# the test says so and is skipped (ctest's SKIP); nowhere else.
set -euo pipefail
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
work=("$PMS_WORKLOADS/phases" --units 250 --repeat 2)
ev=task-clock,page-faults

rc=0; "$PMUSCOPE" stat -a -x, -o "$tmp/all.csv" -e "$ev" -- "${work[@]}" 2> "$tmp/err" || rc=$?
if [ "$rc" != 0 ] && grep -qi 'permission denied\|perf_event_paranoid' "$tmp/err"; then
    echo "SKIP: the kernel refuses system-wide events here: $(cat "$tmp/err")"
    exit 77
fi
[ "$rc" = 0 ] || fail "stat -a: rc $rc: $(cat "$tmp/err")"
cols() { grep -v '^#' "$1" | grep . | cut -d, -f"$2"; }

# -a: perf's lines (unit, event, metric unit); at least the workload's own CPU time.
perf stat -a -x, -o "$tmp/perf-all.csv" -e "$ev" -- "${work[@]}"
diff <(cols "$tmp/perf-all.csv" 2,3,7) <(cols "$tmp/all.csv" 2,3,7) || fail "stat -a -x, lines differ from perf's"
"$PMUSCOPE" stat -x, -o "$tmp/own.csv" -e task-clock -- "${work[@]}"
awk -F, 'NR == FNR { own = $1; next } $3 == "task-clock" { exit !($1 >= 0.8 * own && own > 100) }' \
    "$tmp/own.csv" "$tmp/all.csv" || fail "system-wide task-clock below the workload's: $(cat "$tmp/own.csv" "$tmp/all.csv")"

# -A: one line per event and CPU, CPU<n> first, in perf's order.
"$PMUSCOPE" stat -a -A -x, -o "$tmp/percpu.csv" -e "$ev" -- "${work[@]}"
perf stat -a -A -x, -o "$tmp/perf-percpu.csv" -e "$ev" -- "${work[@]}"
diff <(cols "$tmp/perf-percpu.csv" 1,3,4) <(cols "$tmp/percpu.csv" 1,3,4) || fail "stat -a -A -x, lines differ from perf's"
ncpu=$(getconf _NPROCESSORS_ONLN)
[ "$(cols "$tmp/percpu.csv" 1 | sort -u | wc -l)" = "$ncpu" ] || fail "-A: not one line per CPU: $(cat "$tmp/percpu.csv")"
# Each CPU's task-clock is at most the run's wall time, and together at least the workload's.
awk -F, 'NR == FNR { own = $1; next } $4 == "task-clock" { sum += $2; if ($2 < 0) bad++ }
         END { exit !(!bad && sum >= 0.8 * own) }' "$tmp/own.csv" "$tmp/percpu.csv" || fail "-A task-clock: $(cat "$tmp/percpu.csv")"

# -A --wide: one column per CPU and event, named CPU<n>/<event>, the pairs of perf's -A
# lines in perf's order (no name twice); with -I every row has a value in each column.
"$PMUSCOPE" stat -a -A --wide -o "$tmp/wide.csv" -e "$ev" -- "${work[@]}"
"$PMUSCOPE" stat -a -A --wide -I 100 -o "$tmp/wide-int.csv" -e "$ev" -- "${work[@]}"
perf_cols=$(cols "$tmp/perf-percpu.csv" 1,4 | tr , / | paste -sd, -)
for f in wide wide-int; do
    [ "$(head -1 "$tmp/$f.csv")" = "time,$perf_cols" ] ||
        fail "-A --wide ($f) header is not time,$perf_cols: $(head -1 "$tmp/$f.csv")"
    awk -F, -v n=$((1 + 2 * ncpu)) 'NR > 1 { rows++; for (i = 2; i <= NF; i++) if ($i !~ /^[0-9.]+$/) bad++ }
        NF != n { bad++ } END { exit !(rows >= 1 && !bad) }' "$tmp/$f.csv" || fail "-A --wide ($f): $(cat "$tmp/$f.csv")"
done
[ "$(($(wc -l < "$tmp/wide-int.csv") - 1))" -ge 2 ] || fail "-A --wide -I 100: fewer than 2 intervals: $(cat "$tmp/wide-int.csv")"

# -A -I: every interval has perf's per-CPU lines (CPU, unit, event) in perf's order; the
# intervals' task-clock of all CPUs adds up to at least the workload's own.
"$PMUSCOPE" stat -a -A -I 100 -x, -o "$tmp/int.csv" -e "$ev" -- "${work[@]}"
perf stat -a -A -I 100 -x, -o "$tmp/perf-int.csv" -e "$ev" -- "${work[@]}"
python3 - "$tmp/int.csv" "$tmp/perf-int.csv" "$tmp/own.csv" <<'PY' || fail "stat -a -A -I differs from perf stat -a -A -I"
import sys
def intervals(path):
    out = {}
    for line in open(path):
        f = line.strip().split(",")
        if len(f) > 4 and not line.startswith("#"):
            out.setdefault(f[0], []).append(f)
    return list(out.values())
ours, perf = intervals(sys.argv[1]), intervals(sys.argv[2])
assert len(ours) >= 2 and len(perf) >= 2, (len(ours), len(perf))
shape = [(f[1], f[3], f[4]) for f in perf[0]]
for lines in ours:
    assert [(f[1], f[3], f[4]) for f in lines] == shape, (lines, shape)
own = float(open(sys.argv[3]).read().split(",")[0])
clock = sum(float(f[2]) for lines in ours for f in lines if f[4] == "task-clock")
assert clock >= 0.8 * own, (clock, own)
PY
"$PMUSCOPE" stat -a -A -I 100 -o "$tmp/int.txt" -e "$ev" -- "${work[@]}"
perf stat -a -A -I 100 -o "$tmp/perf-int.txt" -e "$ev" -- "${work[@]}"
diff <(grep -m1 '^#  ' "$tmp/perf-int.txt") <(grep -m1 '^#  ' "$tmp/int.txt") || fail "-A -I header differs from perf's"

# -A -r 2: perf's lines (CPU, unit, event and the runs' spread column) once, each CPU's
# task-clock the mean of two runs: together at least the workload's own.
"$PMUSCOPE" stat -a -A -r 2 -x, -o "$tmp/runs.csv" -e "$ev" -- "${work[@]}"
perf stat -a -A -r 2 -x, -o "$tmp/perf-runs.csv" -e "$ev" -- "${work[@]}"
diff <(cols "$tmp/perf-runs.csv" 1,3,4) <(cols "$tmp/runs.csv" 1,3,4) || fail "stat -a -A -r 2 -x, lines differ from perf's"
awk -F, '$5 !~ /%$/ { bad++ } END { exit bad > 0 }' <(grep -v '^#' "$tmp/runs.csv" | grep .) ||
    fail "-A -r 2: no spread column: $(cat "$tmp/runs.csv")"
awk -F, 'NR == FNR { own = $1; next } $4 == "task-clock" { sum += $2 } END { exit !(sum >= 0.8 * own) }' \
    "$tmp/own.csv" "$tmp/runs.csv" || fail "-A -r 2 task-clock: $(cat "$tmp/runs.csv")"

# -C 0 -A: CPU 0 only, as perf; -C 0 counts less than -a does when the workload runs elsewhere too.
"$PMUSCOPE" stat -C 0 -A -x, -o "$tmp/cpu0.csv" -e "$ev" -- "${work[@]}"
[ "$(cols "$tmp/cpu0.csv" 1 | sort -u)" = "CPU0" ] || fail "-C 0 -A: $(cat "$tmp/cpu0.csv")"

# -j -A: perf's JSON lines with "cpu" first.
"$PMUSCOPE" stat -a -A -j -o "$tmp/percpu.json" -e "$ev" -- "${work[@]}"
perf stat -a -A -j -o "$tmp/perf-percpu.raw" -e "$ev" -- "${work[@]}"
python3 - "$tmp/percpu.json" "$tmp/perf-percpu.raw" <<'PY' || fail "stat -a -A -j differs from perf stat -a -A -j"
import json, sys
ours = [json.loads(l) for l in open(sys.argv[1])]
perf = [json.loads(l) for l in open(sys.argv[2]) if l.startswith("{")]
assert len(ours) == len(perf), (ours, perf)
for a, b in zip(ours, perf):
    assert list(a) == list(b), (list(a), list(b))
    assert (a["cpu"], a["event"], a["unit"]) == (b["cpu"], b["event"], b["unit"]), (a, b)
PY

# The plain table names what was counted as perf does.
"$PMUSCOPE" stat -a -o "$tmp/all.txt" -e task-clock -- true
grep -q "Performance counter stats for 'system wide':" "$tmp/all.txt" || fail "-a header: $(cat "$tmp/all.txt")"
"$PMUSCOPE" stat -C 0 -o "$tmp/cpu0.txt" -e task-clock -- true
grep -q "Performance counter stats for 'CPU(s) 0':" "$tmp/cpu0.txt" || fail "-C 0 header: $(cat "$tmp/cpu0.txt")"

# Usage errors say what goes with what.
rc=0; "$PMUSCOPE" stat -A -e task-clock -- true 2> "$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q -- '-A shows each CPU of -a or -C' "$tmp/err" || fail "-A alone: rc $rc $(cat "$tmp/err")"
rc=0; "$PMUSCOPE" stat -C 99999 -e task-clock -- true 2> "$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q 'CPU 99999 does not exist' "$tmp/err" || fail "-C 99999: rc $rc $(cat "$tmp/err")"
echo ok
