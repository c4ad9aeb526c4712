#!/bin/bash
# A hardware event on a machine without a PMU: shown as <not supported> while the other events
# are counted and the exit code is the command's, as perf stat does (its CSV row is checked
# against perf's); --fallback substitutes task-clock and says so; --schedule=runs, which must
# count every event in its runs, fails with the reason. Bad event names: clear messages.
set -euo pipefail
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

if perf stat -e cycles -x, -- true 2>&1 | grep -q '^<not supported>,,cycles,'; then
    set +e; "$PMUSCOPE" stat -x, -e cycles,task-clock -- sh -c 'exit 3' 2> "$tmp/err"; rc=$?; set -e
    [ "$rc" -eq 3 ] || fail "exit code $rc, expected the command's 3: $(cat "$tmp/err")"
    perf stat -x, -e cycles,task-clock -- true 2> "$tmp/perf"
    [ "$(grep cycles "$tmp/err")" = "$(grep cycles "$tmp/perf")" ] ||
        fail "cycles row: '$(grep cycles "$tmp/err")', perf's: '$(grep cycles "$tmp/perf")'"
    awk -F, '$3 == "task-clock" && $1 + 0 > 0 { ok = 1 } END { exit !ok }' "$tmp/err" ||
        fail "task-clock not counted: $(cat "$tmp/err")"
    "$PMUSCOPE" stat -e cycles,task-clock -- true 2> "$tmp/plain"
    grep -Eq '^ +<not supported> +cycles' "$tmp/plain" || fail "plain output: $(cat "$tmp/plain")"
    grep -q "# cycles: not supported on this machine: no hardware PMU is exposed (ENOENT)" "$tmp/plain" ||
        fail "no note with the reason: $(cat "$tmp/plain")"
    set +e; "$PMUSCOPE" stat --schedule=runs -x, -e cycles,page-faults -- true 2> "$tmp/err" >/dev/null; rc=$?; set -e
    # the library's message, and the CLI's flag for what stands in: --fallback
    [ "$rc" -eq 1 ] && grep -q "not supported on this machine: no hardware PMU is exposed (ENOENT).*stand in for it (--fallback)$" "$tmp/err" ||
        fail "--schedule=runs with an event it cannot count: $rc $(cat "$tmp/err")"

    "$PMUSCOPE" stat --fallback -e cycles:u,page-faults -o "$tmp/fb.txt" -- "$PMS_WORKLOADS/sizes" 1 2> "$tmp/err"
    grep -q "warning: task-clock:u(for cycles:u) stands in for cycles:u (--fallback): it counts time" "$tmp/err" ||
        fail "no warning on stderr: $(cat "$tmp/err")"
    grep -Eq '^ +[0-9.]+ msec task-clock:u\(for cycles:u\) ' "$tmp/fb.txt" || fail "the row does not name the substitute"
    grep -q "# task-clock:u(for cycles:u) stands in for cycles:u (--fallback): cycles:u: not supported" "$tmp/fb.txt" ||
        fail "no note in the report: $(cat "$tmp/fb.txt")"
    "$PMUSCOPE" stat --fallback --wide -e cycles,instructions -- "$PMS_WORKLOADS/sizes" 1 > "$tmp/fb.csv" 2>/dev/null
    [ "$(head -1 "$tmp/fb.csv")" = "time,task-clock(for cycles),task-clock(for instructions)" ] ||
        fail "wide header with substitutes: $(head -1 "$tmp/fb.csv")"
    # --schedule=runs picks task-clock as the anchor without a PMU
    "$PMUSCOPE" stat --schedule=runs --max-counters 1 -x, -e page-faults -- true 2> "$tmp/err" > /dev/null
    grep -q "(task-clock)" "$tmp/err" || fail "default anchor without a PMU should be task-clock"
else
    echo "skipped: no PMU part: this machine counts cycles (tests/pmu covers a PMU)"
fi

set +e; "$PMUSCOPE" stat -e cycels -- true 2> "$tmp/err"; rc=$?; set -e
[ "$rc" -eq 1 ] && grep -q "unknown event 'cycels'.*did you mean 'cycles'?" "$tmp/err" || fail "typo: $(cat "$tmp/err")"
set +e; "$PMUSCOPE" stat -e 'task-clock:q' -- true 2> "$tmp/err"; rc=$?; set -e
[ "$rc" -eq 1 ] && grep -q "unknown modifier 'q'" "$tmp/err" || fail "modifier: $(cat "$tmp/err")"
echo ok
