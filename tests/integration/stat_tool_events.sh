#!/bin/bash
# perf's tool events duration_time, user_time, system_time in stat: the names and units perf
# prints, user+system CPU time against task-clock of the same run, every output format, alone,
# in a group, with --schedule=runs, list.
set -euo pipefail
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ev=duration_time,user_time,system_time,task-clock
cmd=("$PMS_WORKLOADS/phases" --units 250 --repeat 3) # single-threaded, about 0.4 s of CPU
# unit,event,metric unit of -x, lines; system_time can be 0 (<not counted>, no metric) in one
# run and not in the other, so its metric unit is left out.
cols() { grep -v '^#' "$1" | grep . | awk -F, -v OFS=, '{ if ($3 == "system_time") $7 = ""; print $2, $3, $7 }'; }

# -x, : the unit, event and metric unit columns are perf's, line for line.
"$PMUSCOPE" stat -x, -o "$tmp/pms.csv" -e "$ev" -- "${cmd[@]}"
perf stat -x, -o "$tmp/perf.csv" -e "$ev" -- "${cmd[@]}"
cols "$tmp/pms.csv" > "$tmp/pms.cols"
cols "$tmp/perf.csv" > "$tmp/perf.cols"
diff "$tmp/perf.cols" "$tmp/pms.cols" || fail "unit,event,metric unit columns differ from perf stat -x,"
grep -q '^ns,duration_time,' "$tmp/pms.cols" || fail "duration_time unit"

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

# Alone: perf stat -x, prints value,ns,duration_time,run time (the same ns),100.00,,: so do we,
# and the plain table's elapsed seconds are the same measurement.
"$PMUSCOPE" stat -x, -o "$tmp/alone.csv" -e duration_time -- "${cmd[@]}"
perf stat -x, -o "$tmp/perf-alone.csv" -e duration_time -- "${cmd[@]}"
grep -v '^#' "$tmp/perf-alone.csv" | grep . | cut -d, -f2,3,5- > "$tmp/perf-alone.cols"
cut -d, -f2,3,5- "$tmp/alone.csv" > "$tmp/alone.cols"
diff "$tmp/perf-alone.cols" "$tmp/alone.cols" || fail "duration_time alone: columns differ from perf stat -x,"
awk -F, '{ exit !($1 > 1e8 && $1 == $4) }' "$tmp/alone.csv" || fail "duration_time alone: $(cat "$tmp/alone.csv")"
"$PMUSCOPE" stat -o "$tmp/alone.txt" -e duration_time -- "${cmd[@]}"
ns=$(awk '$2 == "ns" && $3 == "duration_time" { print $1 }' "$tmp/alone.txt")
secs=$(awk '/seconds time elapsed/ { print $1 }' "$tmp/alone.txt")
[ -n "$ns" ] && [ "$(awk -v n="$ns" 'BEGIN { printf "%.9f", n / 1e9 }')" = "$secs" ] ||
    fail "duration_time alone: $ns ns against $secs seconds time elapsed"

# In a {group} they are measured as outside one: group membership means nothing to a time.
# (perf 6.1 reads 0 for tool events in a group led by a counter, and <not counted> for the
# counters of a group led by a tool event: its tool events are never opened, so the group
# read skips them. We print perf's names and units, in -e order, with the values perf gives
# them outside a group.)
"$PMUSCOPE" stat -x, -o "$tmp/group.csv" -e '{task-clock,duration_time,user_time},system_time' -- "${cmd[@]}"
perf stat -x, -o "$tmp/perf-group.csv" -e 'task-clock,duration_time,user_time,system_time' -- "${cmd[@]}"
cols "$tmp/perf-group.csv" > "$tmp/perf-group.cols"
cols "$tmp/group.csv" > "$tmp/group.cols"
diff "$tmp/perf-group.cols" "$tmp/group.cols" || fail "tool events in a group: unit,event,metric unit"
gval() { awk -F, -v e="$1" '$3 == e { print ($1 == "<not counted>" ? 0 : $1) }' "$tmp/group.csv"; }
awk -v u="$(gval user_time)" -v s="$(gval system_time)" -v t="$(gval task-clock)" -v d="$(gval duration_time)" 'BEGIN {
    tc = t * 1e6; x = u + s - tc; if (x < 0) x = -x
    exit !(u > 0 && tc > 1e8 && x <= 0.1 * tc + 2e7 && d >= tc) }' || fail "group values: $(cat "$tmp/group.csv")"
# A tool event leading a group leaves the counters counted (the next event leads).
"$PMUSCOPE" stat -x, -o "$tmp/lead.csv" -e '{duration_time,task-clock}' -- "${cmd[@]}"
awk -F, '$3 == "task-clock" { tc = $1 } $3 == "duration_time" { d = $1 }
         END { exit !(tc > 100 && d >= tc * 1e6) }' "$tmp/lead.csv" || fail "group led by duration_time: $(cat "$tmp/lead.csv")"

# --schedule=runs: a tool event is measured in its run, like any other event of the run.
"$PMUSCOPE" stat --schedule=runs --max-counters 1 -x, -o "$tmp/sched.csv" -e page-faults,duration_time,user_time \
    -- "${cmd[@]}" 2> "$tmp/sched.err"
grep -q 'run 2/3: duration_time' "$tmp/sched.err" || fail "--schedule=runs: $(cat "$tmp/sched.err")"
awk -F, '$3 == "task-clock" { tc = $1 * 1e6 } $3 == "duration_time" { d = $1; du = $2 } $3 == "user_time" { u = $1 }
         END { exit !(du == "ns" && d >= 0.5 * tc && u >= 0.5 * tc && u <= 2 * tc && tc > 1e8) }' "$tmp/sched.csv" ||
    fail "--schedule=runs tool events: $(cat "$tmp/sched.csv")"

# They take no modifiers, and cannot be sampled: errors that say so.
rc=0; "$PMUSCOPE" stat -e duration_time:u -- true 2> "$tmp/err" || rc=$?
[ "$rc" = 1 ] && grep -q 'tool event.*no modifiers' "$tmp/err" || fail "duration_time:u: rc $rc $(cat "$tmp/err")"
rc=0; "$PMUSCOPE" record -o "$tmp/rec.data" -e duration_time -- true 2> "$tmp/err" || rc=$?
[ "$rc" = 1 ] && grep -q 'tool event.*cannot be sampled' "$tmp/err" || fail "record -e duration_time: rc $rc $(cat "$tmp/err")"

# list shows them as perf's Tool events.
"$PMUSCOPE" list _time > "$tmp/list"
for e in duration_time user_time system_time; do
    grep -Eq "^  $e +tool +yes$" "$tmp/list" || fail "list $e"
done
echo ok
