#!/bin/bash
# perf's tool events duration_time, user_time, system_time in stat: the names and units perf
# prints, user+system CPU time against task-clock of the same run, every output format, list.
set -euo pipefail
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ev=duration_time,user_time,system_time,task-clock
cmd=("$PMS_WORKLOADS/phases" --repeat 3) # single-threaded, about 0.4 s of CPU

# -x, : the unit and event columns are perf's, line for line.
"$PMUSCOPE" stat -x, -o "$tmp/pms.csv" -e "$ev" -- "${cmd[@]}"
perf stat -x, -o "$tmp/perf.csv" -e "$ev" -- "${cmd[@]}"
cut -d, -f2,3 "$tmp/pms.csv" > "$tmp/pms.cols"
grep -v '^#' "$tmp/perf.csv" | grep . | cut -d, -f2,3 > "$tmp/perf.cols"
diff "$tmp/perf.cols" "$tmp/pms.cols" || fail "unit,event columns differ from perf stat -x,"
grep -qx 'ns,duration_time' "$tmp/pms.cols" || fail "duration_time unit"

# Both are CPU time of the one child: user+system (rusage, from fork) matches task-clock
# (from exec) within 10% + 20 ms however busy the machine; wall time is at least the CPU time.
val() { awk -F, -v e="$1" '$3 == e { print $1 }' "$tmp/pms.csv"; }
dur=$(val duration_time) usr=$(val user_time) sys=$(val system_time) tc=$(val task-clock)
[ "$sys" = "<not counted>" ] && sys=0
awk -v u="$usr" -v s="$sys" -v t="$tc" 'BEGIN {
    tc = t * 1e6; d = u + s - tc; if (d < 0) d = -d
    exit !(u > 0 && tc > 1e8 && d <= 0.1 * tc + 2e7) }' ||
    fail "user_time $usr + system_time $sys ns against task-clock $tc msec"
awk -v d="$dur" -v t="$tc" 'BEGIN { exit !(d >= t * 1e6) }' || fail "duration_time $dur ns < task-clock $tc msec"

# The plain table prints whole ns, as perf.
"$PMUSCOPE" stat -o "$tmp/pms.txt" -e "$ev" -- "${cmd[@]}"
grep -Eq '^ +[0-9]+ ns +duration_time +#' "$tmp/pms.txt" || fail "plain duration_time line"
grep -Eq '^ +[0-9.]+ msec +task-clock' "$tmp/pms.txt" || fail "plain task-clock line"

# --json: the same events in -e order, in ns.
"$PMUSCOPE" stat --json -e "$ev" -- "${cmd[@]}" > "$tmp/pms.json"
python3 - "$tmp/pms.json" <<'PY' || fail "--json tool events"
import json, sys
c = json.load(open(sys.argv[1]))["counts"]
assert [e["event"] for e in c] == ["duration_time", "user_time", "system_time", "task-clock"], c
assert [e["unit"] for e in c] == ["ns", "ns", "ns", "msec"], c
assert c[0]["state"] == "counted" and c[0]["value"] >= c[3]["value"] * 1e6, c
PY

# -I: duration_time is each interval's, rusage is known only at the end: not counted, as perf.
"$PMUSCOPE" stat -I 100 -x, -o "$tmp/int.csv" -e "$ev" -- "${cmd[@]}"
awk -F, '$4 == "duration_time" { n++; if (!($2 > 0)) bad++ }
         $4 == "user_time" && $2 != "<not counted>" { bad++ }
         END { exit !(n >= 1 && !bad) }' "$tmp/int.csv" || fail "-I tool events"

# Alone they have nothing to run beside: a usage error that says so.
rc=0; "$PMUSCOPE" stat -e duration_time -- true 2> "$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q 'need at least one other event' "$tmp/err" || fail "tool events alone: rc $rc"

# list shows them as perf's Tool events.
"$PMUSCOPE" list _time > "$tmp/list"
for e in duration_time user_time system_time; do
    grep -Eq "^  $e +tool +yes$" "$tmp/list" || fail "list $e"
done
echo ok
