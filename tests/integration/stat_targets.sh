#!/bin/bash
# Targets that are not simple: attaching to a running process (-p), a target killed
# mid-run (the counts are still printed, the exit code says so), Ctrl-C, a missing command.
set -euo pipefail
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/processes.sh"

# -p: until the process ends
"$PMS_WORKLOADS/phases" --units 250 --repeat 8 > /dev/null &
target=$!; pids+=("$target")
wait_exec "$target" phases
"$PMUSCOPE" stat -p "$target" -x, -o "$tmp/attach.csv" -e task-clock,page-faults
wait "$target" || true
grep -q "page-faults" "$tmp/attach.csv" || fail "no counts from -p"
tc=$(awk -F, '$3 == "task-clock" { print $1 }' "$tmp/attach.csv")
awk -v t="$tc" 'BEGIN { exit !(t > 200) }' || fail "-p counted only $tc ms of a ~1 s busy process"

# -p: until Ctrl-C (SIGINT to pmuscope), the target keeps running
# The target outlives any wait for stat to attach (a 30 s one once ended first: CI, 31 s);
# cleanup kills it.
sleep 100000 & sleeper=$!; pids+=("$sleeper")
"$PMUSCOPE" stat -p "$sleeper" -e task-clock,context-switches -o "$tmp/int.txt" & stat=$!; pids+=("$stat")
wait_perf_open "$stat"
kill -INT "$stat"
wait "$stat" || fail "stat -p interrupted by Ctrl-C should exit 0"
grep -q "Performance counter stats for process id '$sleeper'" "$tmp/int.txt" || fail "no report after Ctrl-C"
kill -0 "$sleeper" || fail "the attached process should survive"

# Ctrl-C on a launched command: forwarded to it, the counts printed, exit 128+2
"$PMUSCOPE" stat -e task-clock -o "$tmp/intr.txt" -- sleep 20 & stat=$!; pids+=("$stat")
child_of "$stat" sleep >/dev/null
kill -INT "$stat"
set +e; wait "$stat"; rc=$?; set -e
[ "$rc" -eq 130 ] || fail "exit code $rc after Ctrl-C (expected 130, the command died of SIGINT)"
grep -q "msec task-clock" "$tmp/intr.txt" || fail "no counts after Ctrl-C"

# a target killed mid-run: counts printed, exit code 128+9
"$PMUSCOPE" stat -x, -o "$tmp/killed.csv" -e task-clock,page-faults -- "$PMS_WORKLOADS/phases" --units 250 --repeat 50 \
    > /dev/null 2> "$tmp/killed.err" &
stat=$!; pids+=("$stat")
child=$(child_of "$stat" phases)
wait_cpu_ms "$child" 100
kill -KILL "$child"
set +e; wait "$stat"; rc=$?; set -e
[ "$rc" -eq 137 ] || fail "exit code $rc for a target killed by SIGKILL (expected 137)"
grep -q "killed by signal 9" "$tmp/killed.err" || fail "no word about the kill: $(cat "$tmp/killed.err")"
pf=$(awk -F, '$3 == "page-faults" { print $1 }' "$tmp/killed.csv")
[ -n "$pf" ] && [ "$pf" -gt 100 ] || fail "counts of the killed target missing: $(cat "$tmp/killed.csv")"

# the command's own exit status comes through
set +e; "$PMUSCOPE" stat -e task-clock -- sh -c 'exit 3' 2>/dev/null; rc=$?; set -e
[ "$rc" -eq 3 ] || fail "exit status $rc, expected the command's 3"

# a command that cannot run, a process that does not exist
set +e; "$PMUSCOPE" stat -e task-clock -- /nonexistent/prog 2> "$tmp/err"; rc=$?; set -e
[ "$rc" -eq 1 ] && grep -q "cannot run '/nonexistent/prog': No such file or directory" "$tmp/err" || fail "missing command: $rc"
set +e; "$PMUSCOPE" stat -p 12ab -e task-clock 2>/dev/null; rc=$?; set -e
[ "$rc" -eq 2 ] || fail "-p 12ab should be a usage error"
set +e; "$PMUSCOPE" stat -p 4194303 -e task-clock 2> "$tmp/err"; rc=$?; set -e
[ "$rc" -eq 1 ] && grep -q "no process with pid 4194303" "$tmp/err" || fail "missing pid: $rc $(cat "$tmp/err")"
echo ok
