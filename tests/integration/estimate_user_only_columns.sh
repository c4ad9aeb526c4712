#!/bin/bash
# A user who is not root, at perf_event_paranoid 2 (Debian's default), gets stat's tables with
# the events named as perf names them there, "task-clock:u" (stat -e task-clock counts user
# space only and says so). estimate's --cycles and cpistack's --cycles, --instructions and -e
# name a column as the user asked for the event: "task-clock" takes the one column
# "task-clock:u" (docs/estimate.md's own example, `--cycles task-clock`, failed there with "no
# column named 'task-clock'"), with the same results as naming it with its ":u"; a name that two
# columns share with different modifiers stays ambiguous and is refused.
# The tables come from Debian's python3 (a loop of SIZE steps, stat --schedule=runs --sizes) and
# xz (stat -I --wide), counted with ":u" as the unprivileged user's stat counts them.
# (--drop-missing: on a busy machine an interval in which xz never ran is <not counted>, as in perf.)
set -euo pipefail
command -v python3 > /dev/null && command -v xz > /dev/null || { echo "SKIP: python3 or xz is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
pms=$PMUSCOPE

loop='import sys
d = {}
for i in range(int(sys.argv[1]) * 40000): d[i % 5000] = d.get(i % 5000, 0) + i
print(len(d))'
"$pms" stat --schedule=runs --anchor task-clock:u --sizes 1-6 -e page-faults:u,minor-faults:u -o "$tmp/runs.csv" \
    -- python3 -c "$loop" > /dev/null 2> "$tmp/stat.err" || fail "stat --schedule=runs: $(cat "$tmp/stat.err")"
head -1 "$tmp/runs.csv" | grep -q '^run,size,task-clock:u,page-faults:u,minor-faults:u$' || fail "runs table: $(cat "$tmp/runs.csv")"

"$pms" estimate "$tmp/runs.csv" --cycles task-clock --train 1-5 --test 6 > "$tmp/plain.txt" 2> "$tmp/plain.err" ||
    fail "estimate --cycles task-clock: $(cat "$tmp/plain.err")"
"$pms" estimate "$tmp/runs.csv" --cycles task-clock:u --train 1-5 --test 6 > "$tmp/u.txt" 2> /dev/null ||
    fail "estimate --cycles task-clock:u"
grep -q 'cycles from task-clock:u' "$tmp/plain.txt" || fail "estimate: $(head -3 "$tmp/plain.txt")"
cmp -s "$tmp/plain.txt" "$tmp/u.txt" || fail "estimate --cycles task-clock differs from task-clock:u: $(diff "$tmp/plain.txt" "$tmp/u.txt" | head)"

seq 1 100000 | awk '{ print $1, $1 * 7919 % 100003, "x" $1 * 31 % 977 }' > "$tmp/in.txt"
"$pms" stat -I 20 --wide -e task-clock:u,cpu-clock:u,page-faults:u -o "$tmp/w.csv" -- xz -c -T1 "$tmp/in.txt" > /dev/null 2> /dev/null ||
    fail "stat --wide on xz"
[ "$(wc -l < "$tmp/w.csv")" -ge 5 ] || fail "too few intervals of xz: $(cat "$tmp/w.csv")"
"$pms" cpistack --brief --drop-missing --cycles task-clock --instructions cpu-clock -e page-faults "$tmp/w.csv" > "$tmp/c.txt" 2> "$tmp/c.err" ||
    fail "cpistack without :u: $(cat "$tmp/c.err")"
"$pms" cpistack --brief --drop-missing --cycles task-clock:u --instructions cpu-clock:u -e page-faults:u "$tmp/w.csv" > "$tmp/cu.txt" 2> /dev/null ||
    fail "cpistack with :u"
grep -q "page-fault" "$tmp/c.txt" && cmp -s "$tmp/c.txt" "$tmp/cu.txt" || fail "cpistack: $(cat "$tmp/c.txt") against $(cat "$tmp/cu.txt")"

# Two columns of the name with different modifiers: which one is not guessed.
sed '1s/,page-faults:u,/,task-clock:k,/' "$tmp/runs.csv" > "$tmp/two.csv"
set +e; "$pms" estimate "$tmp/two.csv" --cycles task-clock --train 1-5 --test 6 > /dev/null 2> "$tmp/two.err"; rc=$?; set -e
[ "$rc" = 1 ] && grep -q "no column named 'task-clock'" "$tmp/two.err" || fail "ambiguous name: exit $rc: $(cat "$tmp/two.err")"
echo ok
