#!/usr/bin/env bash
# docs/examples/phase_monitor.c: the phase monitor API driven from a user program, on a
# launched command (the monitor's own thread) and on itself (poll mode).
# ctest-labels: serial
set -euo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }
ex=$PMS_BUILD_DIR/tests/example_phase_monitor
[ -x "$ex" ] || fail "$ex was not built"

check() { # OUTPUT MIN_CHANGES MIN_PHASES
    local out=$1 lines changes phases
    lines=$(grep -c '^interval .*: phase .* -> ' <<<"$out" || true)
    changes=$(sed -n 's/^\([0-9]*\) phase changes.*/\1/p' <<<"$out")
    [ -n "$changes" ] || fail "no final tally"
    [ "$lines" -eq "$changes" ] || fail "$lines change lines but a tally of $changes (on_change and the count disagree)"
    [ "$changes" -ge "$2" ] || fail "only $changes phase changes, expected at least $2"
    # distinct phases with intervals, the transition phase 0 left out
    phases=$(sed -n 's/.*intervals per phase://p' <<<"$out" | grep -o '[0-9]*:' | grep -vc '^0:' || true)
    [ "$phases" -ge "$3" ] || fail "only $phases phases, expected at least $3"
    echo "$changes changes, $phases phases"
}

# phases runs A B B C B D three times: 4 distinct kernels, 5 changes per round
out=$("$ex" -- "$PMS_WORKLOADS/phases")
echo "$out" | tail -3
check "$out" 6 3
# --self alternates two loops over 6 rounds: 5 changes between them
out=$("$ex" --self)
echo "$out" | tail -3
check "$out" 3 2
rc=0; "$ex" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "no arguments: exit $rc, expected 2"
err=$(mktemp)
trap 'rm -f "$err"' EXIT
"$ex" -- /nonexistent/program >/dev/null 2>"$err" && fail "a command that cannot run must fail"
grep -q "phase_monitor: .*nonexistent" "$err" || fail "the failure does not name the command: $(cat "$err")"
