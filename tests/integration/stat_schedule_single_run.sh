#!/bin/bash
# stat --schedule=runs --sizes where every event fits in one run beside the anchors (as on a
# machine without a PMU, where the software events are never multiplexed): each size is one
# run, so the anchors' variation between runs is undefined, and stderr says so, as the merged
# report without --sizes does ("a single run, no variation to report"), instead of "CV nan%"
# for each size and "largest coefficient of variation between runs 0.00%" at the end. With
# two runs a size, each size's CV is a number and the largest is given. On Debian's python3,
# a loop whose length is the size appended to the command.
set -euo pipefail
command -v python3 > /dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
loop='import sys
s = 0
for i in range(int(sys.argv[1]) * 20000): s += i % 7
print(s)'

"$PMUSCOPE" stat --schedule=runs --sizes 1-3 -e page-faults,context-switches -o "$tmp/one.csv" \
    -- python3 -c "$loop" > /dev/null 2> "$tmp/one.err" || fail "one run: $(cat "$tmp/one.err")"
grep -q '^pmuscope stat: 2 events in 1 run of at most' "$tmp/one.err" || fail "not one run: $(cat "$tmp/one.err")"
! grep -Eqi 'nan|inf' "$tmp/one.err" || fail "nan on stderr: $(cat "$tmp/one.err")"
for k in 1 2 3; do
    grep -q "^pmuscope stat: TEST$k: anchor task-clock: a single run, no variation to report\$" "$tmp/one.err" ||
        fail "TEST$k: $(cat "$tmp/one.err")"
done
! grep -q 'largest coefficient of variation' "$tmp/one.err" || fail "a largest variation of single runs: $(cat "$tmp/one.err")"
[ "$(wc -l < "$tmp/one.csv")" = 4 ] || fail "runs table: $(cat "$tmp/one.csv")"

"$PMUSCOPE" stat --schedule=runs --max-counters 1 --sizes 1-2 -e page-faults,context-switches -o "$tmp/two.csv" \
    -- python3 -c "$loop" > /dev/null 2> "$tmp/two.err" || fail "two runs: $(cat "$tmp/two.err")"
for k in 1 2; do
    grep -Eq "^pmuscope stat: TEST$k: anchor task-clock CV [0-9]+\.[0-9]{2}% between 2 runs\$" "$tmp/two.err" ||
        fail "TEST$k of two runs: $(cat "$tmp/two.err")"
done
grep -Eq '^pmuscope stat: anchor task-clock: largest coefficient of variation between runs [0-9]+\.[0-9]{2}%$' "$tmp/two.err" ||
    fail "two runs: no largest variation: $(cat "$tmp/two.err")"
echo ok
