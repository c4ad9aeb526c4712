#!/bin/bash
# hotspot --sweep where things go wrong, on small shell commands: a command that fails or
# is killed (natively or only under valgrind), pmuscope itself stopped by SIGTERM, a missing
# --stdin file: an error that names what happened, and the temporary pmuscope-truth-*
# directory gone on every path (TMPDIR is an empty directory of this test). A period longer
# than the command's run, runs whose output differs, and samples in a program valgrind kept
# no counts of (a shell's loop before it execs): the sweep goes on, with a row without
# measures (JSON null) and warnings that name the period and the cause.
# ctest-labels: serial
set -euo pipefail
trap 'echo "FAIL: line $LINENO: exit status $?" >&2' ERR
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
export TMPDIR=$tmp/tmp
mkdir "$TMPDIR"
clean() { [ -z "$(ls -A "$TMPDIR")" ] || fail "$1: left in TMPDIR: $(ls -A "$TMPDIR")"; }
sweep() { "$PMUSCOPE" hotspot --sweep "$@"; }
spin='i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done'

# A command that fails, or is killed, natively and under valgrind.
rc=0; sweep 64K --fallback -- sh -c "$spin; exit 3" > /dev/null 2> "$tmp/err" || rc=$?
[ $rc -eq 1 ] && grep -q "exited with status 3" "$tmp/err" || fail "exit 3: rc $rc: $(cat "$tmp/err")"
clean "exit 3"
rc=0; sweep 64K --fallback -- sh -c "$spin; kill -9 \$\$" > /dev/null 2> "$tmp/err" || rc=$?
[ $rc -eq 1 ] && grep -q "killed by signal 9" "$tmp/err" || fail "kill -9: rc $rc: $(cat "$tmp/err")"
clean "kill -9"
# Only under valgrind (its preload is in the environment there): the error names valgrind's
# run, and its log is shown before the temporary directory goes.
rc=0; sweep 64K --fallback -- sh -c "$spin"'; case "$LD_PRELOAD" in *vgpreload*) exit 4;; esac' > /dev/null \
    2> "$tmp/err" || rc=$?
[ $rc -eq 1 ] && grep -q "under valgrind exited with status 4" "$tmp/err" && grep -q "^valgrind: " "$tmp/err" ||
    fail "exit 4 under valgrind: rc $rc: $(cat "$tmp/err")"
clean "exit 4 under valgrind"

# pmuscope stopped while valgrind runs: valgrind and the command are stopped, nothing left.
"$PMUSCOPE" hotspot --sweep 64K --fallback -- sh -c 'while :; do :; done' > /dev/null 2> "$tmp/err" &
pid=$!
until grep -q "valgrind (callgrind) started" "$tmp/err"; do
    kill -0 $pid 2> /dev/null || fail "the sweep ended before valgrind started: $(cat "$tmp/err")"
    sleep 0.05
done
children=$(pgrep -P $pid | tr '\n' ' ' || true)
kill -TERM $pid
rc=0; wait $pid || rc=$?
[ $rc -eq 1 ] && grep -q "stopped" "$tmp/err" || fail "SIGTERM: rc $rc: $(cat "$tmp/err")"
for c in $children; do ! kill -0 "$c" 2> /dev/null || fail "SIGTERM: process $c ($(cat /proc/$c/comm)) left running"; done
clean "SIGTERM"

rc=0; sweep 64K --fallback --stdin "$tmp/none" -- cat > /dev/null 2> "$tmp/err" || rc=$?
[ $rc -eq 1 ] && grep -q -- "--stdin $tmp/none: No such file" "$tmp/err" || fail "missing --stdin: rc $rc: $(cat "$tmp/err")"
clean "missing --stdin"

# A period longer than the run: its row, with 0 samples and no measures; the others kept.
sweep 256K,1G --fallback --json -o "$tmp/empty.json" -- sh -c "$spin" 2> "$tmp/err" || fail "1G: $(cat "$tmp/err")"
jq -e '.periods | length == 2 and .[0].measured and (.[1] | .measured == false and .ns == 0 and .nrmse_sr == null
       and .sc == null and .od == null and .nrmse_sr_ideal == null and (.nrmse_sr_reason | test("no sample")))' \
    "$tmp/empty.json" > /dev/null || fail "1G: $(jq -c '.periods[1]' "$tmp/empty.json")"
grep -q "warning: period 1G: .* none in a file: the period is longer than the command's run" "$tmp/err" ||
    fail "1G: no warning: $(cat "$tmp/err")"
sweep 256K,1G --fallback --csv -- sh -c "$spin" > "$tmp/empty.csv" 2> "$tmp/err" || fail "1G --csv: $(cat "$tmp/err")"
awk -F, 'NR == 3 && $1 == 1073741824 && $6 == "" && $10 == "" { ok = 1 } END { exit !ok }' "$tmp/empty.csv" ||
    fail "1G in the CSV: $(cat "$tmp/empty.csv")"
clean "1G"

# Runs whose output differs (the time of day): said, and the sweep goes on.
sweep 256K --fallback --json -o "$tmp/date.json" -- sh -c "$spin; date +%s%N" 2> "$tmp/err" || fail "date: $(cat "$tmp/err")"
jq -e '.runs_differ | test("standard output of native run 1 .* differs from valgrind")' "$tmp/date.json" > /dev/null ||
    fail "date: runs_differ $(jq .runs_differ "$tmp/date.json")"
grep -q "warning: the runs did not all do the same" "$tmp/err" || fail "date: no warning: $(cat "$tmp/err")"
clean "date"

# The same input for every run: both read the whole file (shared, each would read part).
seq 200000 > "$tmp/numbers"
sweep 256K --fallback --stdin "$tmp/numbers" --json -o "$tmp/stdin.json" -- sh -c "$spin; wc -l" 2> "$tmp/err" ||
    fail "stdin: $(cat "$tmp/err")"
jq -e '.runs_differ == null' "$tmp/stdin.json" > /dev/null || fail "stdin: $(jq .runs_differ "$tmp/stdin.json")"

# A shell that loops and then execs: valgrind keeps no counts of the shell's image before
# the exec, so the loop's samples are in a file valgrind never ran, and the warning says so.
sweep 64K --fallback --json -o "$tmp/exec.json" -- sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done; exec true' \
    2> "$tmp/err" || fail "exec: $(cat "$tmp/err")"
jq -e '.periods[0] | .outside_truth_share > 0.5 and (.outside_files[0].path | test("/(dash|sh|bash)$"))' \
    "$tmp/exec.json" > /dev/null || fail "exec: $(jq -c '.periods[0] | {outside_truth_share, outside_files}' "$tmp/exec.json")"
grep -q "warning: period 64K: .* in files valgrind never ran (most in /.*sh, process sh): a program that ran before an exec" \
    "$tmp/err" || fail "exec: the warning: $(cat "$tmp/err")"
clean "exec"
echo ok
