#!/bin/bash
# --schedule=runs: events split over runs that fit --max-counters, the anchor measured in
# every run and its variation reported; --sizes writes the runs table of the sizes workload.
set -euo pipefail
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$PMUSCOPE" stat --schedule=runs --max-counters 1 --anchor task-clock -x, -o "$tmp/merged.csv" \
    -e page-faults,context-switches,minor-faults -- "$PMS_WORKLOADS/sizes" 2 2> "$tmp/err"
cat "$tmp/err"
grep -q "3 events in 3 runs of at most 1 beside the anchors (task-clock)" "$tmp/err" || fail "plan not announced"
for i in 1 2 3; do grep -q "run $i/3" "$tmp/err" || fail "no progress for run $i"; done
grep -q "anchor task-clock varied between the 3 runs: coefficient of variation [0-9.]*%" "$tmp/err" ||
    fail "anchor variation not reported"
# merged: the anchor and all three events, each counted
[ "$(cut -d, -f3 "$tmp/merged.csv" | tr '\n' ' ')" = "task-clock page-faults context-switches minor-faults " ] ||
    fail "merged table: $(cat "$tmp/merged.csv")"
pf=$(awk -F, '$3 == "page-faults" { print $1 }' "$tmp/merged.csv")
mf=$(awk -F, '$3 == "minor-faults" { print $1 }' "$tmp/merged.csv")
# page-faults and minor-faults come from different runs of a deterministic program: close
awk -v a="$pf" -v b="$mf" 'BEGIN { exit !(a > 500 && (a > b ? a - b : b - a) / a < 0.05) }' ||
    fail "page-faults $pf and minor-faults $mf from separate runs should agree"

# the plain form names the runs in a note under the table
"$PMUSCOPE" stat --schedule=runs --max-counters 2 --anchor task-clock -o "$tmp/plain.txt" \
    -e page-faults,cs,minor-faults -- "$PMS_WORKLOADS/sizes" 1 2>/dev/null
grep -q "# anchor task-clock varied between the 2 runs" "$tmp/plain.txt" || fail "plain note: $(cat "$tmp/plain.txt")"

# --sizes: one row per size, the size appended to the command
"$PMUSCOPE" stat --schedule=runs --max-counters 1 --sizes 1-3,5 -o "$tmp/runs.csv" \
    -e page-faults,minor-faults -- "$PMS_WORKLOADS/sizes" 2> "$tmp/err"
cat "$tmp/runs.csv"
[ "$(head -1 "$tmp/runs.csv")" = "run,size,task-clock,page-faults,minor-faults" ] || fail "runs header"
[ "$(cut -d, -f1,2 "$tmp/runs.csv" | tail -n +2 | tr '\n' ' ')" = "TEST1,1 TEST2,2 TEST3,3 TEST5,5 " ] ||
    fail "runs rows"
grep -q "TEST5 (4/4): run 2/2" "$tmp/err" || fail "no progress per size"
grep -q "anchor task-clock: largest coefficient of variation between runs" "$tmp/err" || fail "no CV summary"
# sizes N sorts N MiB of ints with an N MiB buffer: page-faults grow by about 512 per size step (more under ASan, whose shadow memory faults too)
awk -F, 'NR > 1 { if (NR > 2 && $4 <= last) bad = 1; last = $4 } END { exit bad }' "$tmp/runs.csv" ||
    fail "page-faults should grow with the size"
awk -F, 'NR == 2 { a = $4 } NR == 5 { b = $4 } END { exit !((b - a) > 4 * 400 && (b - a) < 4 * 800) }' "$tmp/runs.csv" ||
    fail "page-faults from size 1 to 5 should grow by about 4 x 512"

# --json=FILE beside the text, from the same runs: the JSON's counts are the plain table's
# and the runs table's, number for number.
"$PMUSCOPE" stat --schedule=runs --max-counters 1 --anchor task-clock -o "$tmp/plain.txt" --json="$tmp/plain.json" \
    -e page-faults,context-switches -- "$PMS_WORKLOADS/sizes" 1 2>/dev/null
for ev in page-faults context-switches; do
    text=$(awk -v ev="$ev" '$2 == ev { gsub(",", "", $1); print $1 }' "$tmp/plain.txt")
    json=$(jq --arg ev "$ev" '.counts[] | select(.event == $ev) | .value' "$tmp/plain.json")
    [ -n "$text" ] && [ "$text" = "$json" ] || fail "--json=FILE: $ev is $json, the text says '$text'"
done
[ "$(jq .runs "$tmp/plain.json")" -eq 2 ] || fail "--json=FILE: runs $(jq .runs "$tmp/plain.json")"
"$PMUSCOPE" stat --schedule=runs --max-counters 1 --sizes 1,3 -o "$tmp/runs.csv" --json="$tmp/runs.json" \
    -e page-faults,minor-faults -- "$PMS_WORKLOADS/sizes" 2>/dev/null
from_json=$(jq -r '.runs[] | [.run, .size, (.counts[] | select(.event != "task-clock") | .value)] | join(",")' \
    "$tmp/runs.json")
from_csv=$(tail -n +2 "$tmp/runs.csv" | cut -d, -f1,2,4,5)
[ "$from_json" = "$from_csv" ] || fail "--sizes --json=FILE: $from_json, the runs table: $from_csv"

# a command that fails in a run: exit 1, the rows already written are kept
cat > "$tmp/flaky.sh" <<'SH'
#!/bin/sh
[ "$1" -lt 3 ] || exit 4
SH
chmod +x "$tmp/flaky.sh"
set +e
"$PMUSCOPE" stat --schedule=runs --max-counters 1 --sizes 1-4 -o "$tmp/partial.csv" -e page-faults -- "$tmp/flaky.sh" \
    2> "$tmp/err"; rc=$?
set -e
[ "$rc" -eq 1 ] || fail "a failing command should give exit 1, not $rc"
grep -q "TEST3 (3/4): run 1/1: the command exited with status 4, so this size has no row" "$tmp/err" ||
    fail "message: $(cat "$tmp/err")"
[ "$(wc -l < "$tmp/partial.csv")" -eq 3 ] || fail "rows of sizes 1 and 2 should be kept"

set +e; "$PMUSCOPE" stat --schedule=runs --sizes 1-x -e page-faults -- true 2> "$tmp/err"; rc=$?; set -e
[ "$rc" -eq 2 ] && grep -q -- "--sizes: expected sizes such as 1-10,50, found '1-x'" "$tmp/err" || fail "bad --sizes"
echo ok
