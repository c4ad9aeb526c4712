#!/bin/bash
# A user who is not root, at perf_event_paranoid 2 (the Debian and Ubuntu default), as perf
# handles it (evsel__fallback): every command that opens events counts user space only, says so
# once on stderr and names its events with perf's ":u" in every output (text, CSV, JSON,
# perf.data), and exits 0; perf stat's names for the same events are the reference. Where no
# fallback exists the refusal gives the advice of the case: system-wide counting (-a) needs 0 or
# CAP_PERFMON, a kernel-only event needs 1.
# Run as root, the test sets paranoid 2 for its run (restored on exit) and runs the commands as
# `nobody` from a world-readable copy of the binary; run by a user, it is that user.
# Not under the sanitizers: hotspot runs the workload under valgrind, which cannot run ASan
# binaries (unit/test_event_parse covers the fallback's names there).
# ctest-labels: no-sanitize
set -euo pipefail
fail() { echo "FAIL: $*"; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/unprivileged.sh"
install -m 755 "$PMS_WORKLOADS/sizes" "$PMS_WORKLOADS/phases" "$tmp/"
out="$tmp/home"

# stat: the default events, counted in user space only, named as perf names them.
as_user "$pms" stat -x, -o "$out/stat.csv" -- "$tmp/sizes" 1 2> "$out/stat.err" || fail "stat: $(cat "$out/stat.err")"
[ "$(grep -c 'perf_event_paranoid is 2: counting user space only' "$out/stat.err")" = 1 ] ||
    fail "stat: not said once on stderr: $(cat "$out/stat.err")"
ev=task-clock,context-switches,page-faults
as_user "$pms" stat -x, -e "$ev" -o "$out/own.csv" -- "$tmp/sizes" 1 2> /dev/null
as_user perf stat -x, -e "$ev" -o "$out/perf.csv" -- "$tmp/sizes" 1 2> /dev/null
names() { grep -v '^#' "$1" | grep . | cut -d, -f3; }
[ "$(names "$out/own.csv")" = "$(names "$out/perf.csv")" ] ||
    fail "stat -x, event names: $(names "$out/own.csv" | xargs) where perf stat says $(names "$out/perf.csv" | xargs)"
[ "$(names "$out/perf.csv" | head -1)" = "task-clock:u" ] || fail "perf stat did not fall back: $(cat "$out/perf.csv")"
names "$out/stat.csv" | grep -qx 'page-faults:u' || fail "default events: $(cat "$out/stat.csv")"
awk -F, '$3 == "task-clock:u" && $1 > 0 { ok = 1 } END { exit !ok }' "$out/own.csv" || fail "no user time: $(cat "$out/own.csv")"
as_user "$pms" stat --json -e "$ev" -- "$tmp/sizes" 1 > "$out/stat.json" 2> /dev/null
python3 - "$out/stat.json" <<'EOF' || fail "stat --json: $(cat "$out/stat.json")"
import json, sys
names = [c["event"] for c in json.load(open(sys.argv[1]))["counts"]]
assert names == ["task-clock:u", "context-switches:u", "page-faults:u"], names
EOF
# An event asked for in user space only needs no fallback, and nothing is said.
as_user "$pms" stat -e task-clock:u -o /dev/null -- "$tmp/sizes" 1 2> "$out/u.err" || fail "stat -e task-clock:u"
[ ! -s "$out/u.err" ] || fail "a warning for an event asked with :u: $(cat "$out/u.err")"

# record: perf.data whose attr excludes the kernel, which perf itself names cpu-clock:u.
as_user "$pms" record -o "$out/x.data" -- "$tmp/sizes" 1 2> "$out/rec.err" || fail "record: $(cat "$out/rec.err")"
grep -q 'counting user space only, as perf does (cpu-clock:u)' "$out/rec.err" || fail "record: $(cat "$out/rec.err")"
[ "$(perf evlist -f -i "$out/x.data" 2>/dev/null)" = "cpu-clock:u" ] || fail "perf evlist: $(perf evlist -f -i "$out/x.data" 2>&1)"
as_user "$pms" report -i "$out/x.data" > "$out/report.txt" || fail "report"
grep -q 'event cpu-clock:u' "$out/report.txt" || fail "report: $(head -3 "$out/report.txt")"
# perf's samples of the same file: none in the kernel.
if perf script -f -i "$out/x.data" -F ip 2>/dev/null | grep -qi '^ *ffff'; then fail "kernel samples in a user-only recording"; fi

# Two event lists in one command, said in one warning: record's -e and --read (on Debian's
# gzip), stat --schedule=runs's anchors and events (on python3, the size its argument).
seq 1 100000 > "$out/in.txt"
as_user "$pms" record -e cpu-clock --read page-faults,context-switches -o "$out/r.data" -- gzip -c in.txt \
    > /dev/null 2> "$out/read.err" || fail "record --read: $(cat "$out/read.err")"
[ "$(grep -c 'counting user space only' "$out/read.err")" = 1 ] &&
    grep -q 'as perf does (cpu-clock:u, page-faults:u, context-switches:u)' "$out/read.err" ||
    fail "record --read: not said once: $(cat "$out/read.err")"
as_user "$pms" stat --schedule=runs --sizes 1,2 -e page-faults -o "$out/runs.csv" -- python3 -c 'import sys; print(sys.argv[1])' \
    > /dev/null 2> "$out/runs.err" || fail "stat --schedule=runs: $(cat "$out/runs.err")"
[ "$(grep -c 'counting user space only' "$out/runs.err")" = 1 ] && grep -q 'as perf does (task-clock:u, page-faults:u)' "$out/runs.err" ||
    fail "stat --schedule=runs: not said once: $(cat "$out/runs.err")"
head -1 "$out/runs.csv" | grep -q '^run,size,task-clock:u,page-faults:u$' || fail "runs table: $(cat "$out/runs.csv")"

# phase: its events with ":u" in the summary, said once on stderr.
as_user "$pms" phase -q --json -o "$out/phase.json" -- "$tmp/phases" 2> "$out/phase.err" || fail "phase: $(cat "$out/phase.err")"
[ "$(grep -c 'counting user space only' "$out/phase.err")" = 1 ] || fail "phase: $(cat "$out/phase.err")"
grep -q 'samples of cpu-clock:u, intervals of task-clock:u' "$out/phase.json" || fail "phase source: $(head -c 600 "$out/phase.json")"

# hotspot: a named event without :u falls back too (the default, cycles:u, needs none).
as_user "$pms" hotspot -e cpu-clock --sweep 1M -- "$tmp/sizes" 1 > "$out/hot.txt" 2> "$out/hot.err" ||
    fail "hotspot: $(cat "$out/hot.err")"
grep -q 'counting user space only, as perf does (cpu-clock:u)' "$out/hot.err" || fail "hotspot: $(cat "$out/hot.err")"
grep -q '^event  *cpu-clock:u' "$out/hot.txt" || fail "hotspot: $(cat "$out/hot.txt")"

# demo: says it once, and its page too (two steps, to keep it short).
as_user "$pms" demo --steps record,phase --workloads "$tmp" -o "$out/demo" > /dev/null 2> "$out/demo.err" ||
    fail "demo: $(cat "$out/demo.err")"
grep -q 'perf_event_paranoid is 2: the steps count user space only' "$out/demo.err" || fail "demo: $(cat "$out/demo.err")"
grep -q "perf_event_paranoid let this user count user space only" "$out/demo/index.html" || fail "demo page"

# No fallback: system-wide counting needs 0 (or CAP_PERFMON), whatever the levels.
for cmd in "stat -o /dev/null" "record -o $out/a.data"; do
    set +e; as_user "$pms" $cmd -a -e task-clock -- "$tmp/sizes" 1 2> "$out/a.err"; rc=$?; set -e
    [ "$rc" = 1 ] || fail "$cmd -a: exit $rc: $(cat "$out/a.err")"
    grep -q 'to count every process on a CPU (-a, system-wide): perf_event_paranoid is 2 and system-wide counting needs 0' "$out/a.err" &&
        grep -q 'CAP_PERFMON' "$out/a.err" && ! grep -q ':u modifier' "$out/a.err" || fail "$cmd -a advice: $(cat "$out/a.err")"
done
# ... and a kernel-only event is refused as perf refuses it, with the level it needs.
set +e; as_user "$pms" stat -e task-clock:k -o /dev/null -- "$tmp/sizes" 1 2> "$out/k.err"; rc=$?; set -e
[ "$rc" = 1 ] && grep -q 'task-clock:k: permission denied (EACCES): perf_event_paranoid is 2; .*kernel.perf_event_paranoid=1' "$out/k.err" ||
    fail "stat -e task-clock:k: exit $rc: $(cat "$out/k.err")"
echo ok
