#!/usr/bin/env bash
# pmuscope estimate on data as users have it: a cell that is not a count (text, empty, negative) in a
# runs table or in an interval table is refused with file:line:column (it used to remove its whole
# counter from an interval table, 12 counters becoming 11, exit 0), or left out and named with
# --drop-missing; the ARM interval table given as a runs table is refused naming --sum-intervals;
# run labels that are 19-digit timestamps are printed as written.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fx=$PMS_FIXTURES
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_fail() { # message, then the command
    local want=$1; shift
    set +e
    "$@" > /dev/null 2> "$tmp/err"; local rc=$?
    set -e
    [ $rc -eq 1 ] || fail "exit $rc, expected 1: $*"
    grep -q -- "$want" "$tmp/err" || fail "message: $(cat "$tmp/err"), expected: $want"
}

# an interval table (the bundled ARM excerpt) with text in line 40's L1I_CACHE_REFILL (field 11)
# and a negative count in line 41's L1I_TLB_REFILL (field 12)
tsv=$fx/armpm/cbench-excerpt.tsv
awk -F'\t' 'BEGIN { OFS = "\t" } NR == 40 { $11 = "x12" } NR == 41 { $12 = "-3" } { print }' "$tsv" > "$tmp/bad.tsv"
expect_fail "bad.tsv:40:11: column 'L1I_CACHE_REFILL': expected a count (0 or more), found 'x12'; such rows can be left out (--drop-missing)" \
    "$PMUSCOPE" estimate "$tmp/bad.tsv" --sum-intervals --method lp
awk -F'\t' 'BEGIN { OFS = "\t" } NR == 41 { $12 = "-3" } { print }' "$tsv" > "$tmp/neg.tsv"
expect_fail "neg.tsv:41:12: column 'L1I_TLB_REFILL': expected a count (0 or more), found -3, a negative count" \
    "$PMUSCOPE" estimate "$tmp/neg.tsv" --sum-intervals --method lp
# --drop-missing: the two intervals left out and named, every counter kept, the sums without them
"$PMUSCOPE" estimate "$tmp/bad.tsv" --sum-intervals --method lp --drop-missing --json --write-runs "$tmp/runs.csv" \
    > "$tmp/drop.json" 2> "$tmp/drop.err"
grep -q "warning: --drop-missing left out 2 intervals with a missing or bad count, the first at line 40" "$tmp/drop.err" \
    || fail "no warning: $(cat "$tmp/drop.err")"
jq -e '.dropped == [{"line": 40, "why": "column '"'"'L1I_CACHE_REFILL'"'"': '"'"'x12'"'"'"}, {"line": 41, "why": "column '"'"'L1I_TLB_REFILL'"'"': -3, a negative count"}]' \
    "$tmp/drop.json" > /dev/null || fail "dropped: $(jq -c .dropped "$tmp/drop.json")"
[ "$(head -1 "$tmp/runs.csv" | tr ',' '\n' | wc -l)" = 14 ] || fail "a counter was lost: $(head -1 "$tmp/runs.csv")"
want=$(awk -F'\t' 'NR > 1 && NR != 40 && NR != 41 && $2 == "automotive_bitcount" { s += $9 } END { printf "%.0f", s }' "$tsv")
[ "$(grep '^automotive_bitcount/' "$tmp/runs.csv" | cut -d, -f2)" = "$want" ] || fail "bitcount's cycles without the two intervals"
"$PMUSCOPE" estimate "$tmp/bad.tsv" --sum-intervals --method lp --drop-missing 2> /dev/null \
    | grep -q "^left out for a missing or bad count (2): line 40 (column 'L1I_CACHE_REFILL': 'x12'); line 41" || fail "text"

# a runs table: one bad cell refuses the table, or drops its run
runs=$fx/estimate/sizes_runs.csv
sed 's/^TEST5,5,\([0-9]*\),\([0-9]*\),/TEST5,5,\1,n\/a,/' "$runs" > "$tmp/runs_bad.csv"
expect_fail "runs_bad.csv:6:4: column '.*': expected a count (0 or more), found 'n/a'" \
    "$PMUSCOPE" estimate "$tmp/runs_bad.csv" --train 1-10 --test 50
"$PMUSCOPE" estimate "$tmp/runs_bad.csv" --train 1-4,6-10 --test 50 --drop-missing --json 2> /dev/null > "$tmp/rd.json"
jq -e '(.dropped | length) == 1 and .dropped[0].line == 6 and (.train | index("TEST5") | not) and (.train | length) == 9' \
    "$tmp/rd.json" > /dev/null || fail "runs table --drop-missing: $(jq -c '[.dropped, .train]' "$tmp/rd.json")"

# the ARM interval table as a runs table: refused, naming the option that reads it
expect_fail "an interval table (the ARM cBench layout: first column 'Timestamp', 206 rows), not one row per run.*(--sum-intervals)" \
    "$PMUSCOPE" estimate "$tsv"
# one run per interval, asked for: labels are the timestamps as written (19 digits, not 1.48e+18)
"$PMUSCOPE" estimate "$tsv" --group-by Timestamp --method lp --write-runs "$tmp/per.csv" > /dev/null
[ "$(sed -n 2p "$tmp/per.csv" | cut -d, -f1)" = "$(sed -n 2p "$tsv" | cut -f1)" ] || fail "label $(sed -n 2p "$tmp/per.csv" | cut -d, -f1)"
echo "estimate_data_faults: OK"
