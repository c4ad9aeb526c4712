#!/bin/bash
# A hardware event on a machine without a PMU: exit 1 and a message naming the event and
# the reason; --fallback substitutes task-clock and says so. Bad event names: clear messages.
set -euo pipefail
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

set +e; "$PMUSCOPE" stat -e task-clock,cycles -- true 2> "$tmp/err"; rc=$?; set -e
if [ "$rc" -eq 0 ]; then
    echo "skipped: no PMU part: this machine counts cycles"
else
    [ "$rc" -eq 1 ] || fail "exit code $rc, expected 1"
    grep -q "^pmuscope: cycles: not supported on this machine: no hardware PMU is exposed (ENOENT)" "$tmp/err" ||
        fail "message: $(cat "$tmp/err")"

    "$PMUSCOPE" stat --fallback -e cycles:u,page-faults -o "$tmp/fb.txt" -- "$PMS_WORKLOADS/sizes" 1 2> "$tmp/err"
    grep -q "warning: task-clock(for cycles:u) stands in for cycles:u (--fallback): it counts time" "$tmp/err" ||
        fail "no warning on stderr: $(cat "$tmp/err")"
    grep -Eq '^ +[0-9.]+ msec task-clock\(for cycles:u\) ' "$tmp/fb.txt" || fail "the row does not name the substitute"
    grep -q "# task-clock(for cycles:u) stands in for cycles:u (--fallback): cycles:u: not supported" "$tmp/fb.txt" ||
        fail "no note in the report: $(cat "$tmp/fb.txt")"
    "$PMUSCOPE" stat --fallback --wide -e cycles,instructions -- "$PMS_WORKLOADS/sizes" 1 > "$tmp/fb.csv" 2>/dev/null
    [ "$(head -1 "$tmp/fb.csv")" = "time,task-clock(for cycles),task-clock(for instructions)" ] ||
        fail "wide header with substitutes: $(head -1 "$tmp/fb.csv")"
    # --schedule=runs picks task-clock as the anchor without a PMU
    "$PMUSCOPE" stat --schedule=runs --max-counters 1 -x, -e page-faults -- true 2> "$tmp/err" > /dev/null
    grep -q "(task-clock)" "$tmp/err" || fail "default anchor without a PMU should be task-clock"
fi

set +e; "$PMUSCOPE" stat -e cycels -- true 2> "$tmp/err"; rc=$?; set -e
[ "$rc" -eq 1 ] && grep -q "unknown event 'cycels'.*did you mean 'cycles'?" "$tmp/err" || fail "typo: $(cat "$tmp/err")"
set +e; "$PMUSCOPE" stat -e 'task-clock:q' -- true 2> "$tmp/err"; rc=$?; set -e
[ "$rc" -eq 1 ] && grep -q "unknown modifier 'q'" "$tmp/err" || fail "modifier: $(cat "$tmp/err")"
echo ok
