#!/usr/bin/env bash
# pmuscope cpistack from the command line: ARM tables and raw perf stat files,
# perf stat output made here, JSON and SVG, and the errors with their exit codes.
set -euo pipefail
fx=$PMS_FIXTURES/armpm
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
# "intervals: U used, ... (D dropped: ...) (M dropped: ...)" -> "U + D + M"
dropped_sum() { head -1 "$1" | sed -e 's/^intervals: \([0-9]*\) used[^(]*/\1/' -e 's/ *(\([0-9]*\) dropped[^)]*)/ + \1/g'; }

# --help exits 0; bad options exit 2
grep -q -- "--method ols|nnls|ridge" <("$PMUSCOPE" cpistack --help) || fail "--help"
set +e
"$PMUSCOPE" cpistack --method lasso "$fx/cbench-excerpt.tsv" 2>"$tmp/err"; rc=$?
set -e
[ $rc -eq 2 ] || fail "bad --method gave $rc"
grep -q "expected ols, nnls or ridge" "$tmp/err" || fail "bad --method message"

# one CPI stack per program of the ARM excerpt, text
"$PMUSCOPE" cpistack --group-by Benchmark --skip 2 "$fx/cbench-excerpt.tsv" >"$tmp/out.txt"
[ "$(grep -c '^== Benchmark = ' "$tmp/out.txt")" -eq 4 ] || fail "expected 4 programs"
[ "$(grep -c '^  model CPI' "$tmp/out.txt")" -eq 4 ] || fail "expected 4 stacks"
grep -q "^Residual standard error: .* on [0-9]* degrees of freedom" "$tmp/out.txt" || fail "lm summary"
grep -q "^Test RMSE: " "$tmp/out.txt" || fail "test RMSE"
grep -q "^BRANCH_MISPRED .* VIF" "$tmp/out.txt" && fail "VIF header misplaced"
grep -q "VIF" "$tmp/out.txt" || fail "correlation and VIF"

# NNLS: no negative component anywhere
"$PMUSCOPE" cpistack --group-by Benchmark --method nnls --normalize --json "$fx/cbench-excerpt.tsv" >"$tmp/out.json"
grep -q '"method": "nnls"' "$tmp/out.json" || fail "json method"
if grep -E '"component": -[0-9]' "$tmp/out.json"; then fail "negative NNLS component"; fi
[ "$(grep -c '"group": ' "$tmp/out.json")" -eq 4 ] || fail "json groups"

# the raw perf stat files of the two event lists, merged interval by interval, with an SVG
"$PMUSCOPE" cpistack --split 1 --svg "$tmp/stack.svg" "$fx/events_list_1-run1-1GHz-head.data" \
  "$fx/events_list_2-run1-1GHz-head.data" >"$tmp/raw.txt"
grep -q "^intervals: 70 used, 70 for training, 0 for testing" "$tmp/raw.txt" || fail "raw merge: $(head -1 "$tmp/raw.txt")"
grep -q "<svg" "$tmp/stack.svg" || fail "svg"
grep -q "CPI stack per interval" "$tmp/stack.svg" || fail "svg per-interval chart"

# the same files labelled with their program windows: one stack per program
"$PMUSCOPE" cpistack --split 1 --brief --windows "$fx/benchmarks_list_1-run1-1GHz.data" \
  --windows "$fx/benchmarks_list_2-run1-1GHz.data" "$fx/events_list_1-run1-1GHz-head.data" \
  "$fx/events_list_2-run1-1GHz-head.data" >"$tmp/programs.txt"
grep -q "^automotive_bitcount " "$tmp/programs.txt" || fail "--programs: bitcount"
grep -q "^automotive_qsort1 " "$tmp/programs.txt" || fail "--programs: qsort1"
set +e
"$PMUSCOPE" cpistack --windows "$fx/benchmarks_list_1-run1-1GHz.data" "$fx/events_list_1-run1-1GHz-head.data" \
  "$fx/events_list_2-run1-1GHz-head.data" 2>"$tmp/err"; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "expected one per file" "$tmp/err" || fail "--programs count"

# perf stat -I output made here (software events: no PMU needed); cycles and
# instructions are named by hand, and every interval must reach the fit. The command is
# a loop of short runs, so that every 100 ms interval has the context switches of a fork
# and exec and the page faults of a fresh process, even on an idle machine.
loop=(sh -c 'for i in $(seq 20); do "$0" --units 20 --repeat 1; done' "$PMS_WORKLOADS/phases")
perf stat -I 100 -x, -o "$tmp/ps.csv" -e task-clock,page-faults,context-switches -- \
  "${loop[@]}" >/dev/null 2>&1 || fail "perf stat"
n=$(awk -F, '!/^#/ && NF>3 {t[$1]=1} END {n=0; for (k in t) n++; print n}' "$tmp/ps.csv")
"$PMUSCOPE" cpistack --cycles task-clock --instructions context-switches -e page-faults --split 1 --drop-missing \
  "$tmp/ps.csv" >"$tmp/ps.txt" || fail "cpistack on perf stat output"
# an interval without context switches has no "CPI" and is reported as dropped
[ $(($(dropped_sum "$tmp/ps.txt"))) -eq "$n" ] || fail "perf stat intervals: $(head -1 "$tmp/ps.txt"), awk saw $n"
grep -q "^lm(formula = CPI ~ page-faults)" "$tmp/ps.txt" || fail "perf stat model"

# pmuscope stat --wide output reads as the same intervals
"$PMUSCOPE" stat -I 100 --wide -e task-clock,page-faults,context-switches -o "$tmp/wide.csv" -- \
  "${loop[@]}" >/dev/null 2>&1 || fail "pmuscope stat --wide"
rows=$(($(grep -vc '^#' "$tmp/wide.csv") - 1))
"$PMUSCOPE" cpistack --cycles task-clock --instructions context-switches -e page-faults --split 1 --drop-missing \
  "$tmp/wide.csv" >"$tmp/wide.txt" || fail "cpistack on stat --wide output"
[ $(($(dropped_sum "$tmp/wide.txt"))) -eq "$rows" ] || fail "stat --wide intervals: $(head -1 "$tmp/wide.txt"), file has $rows"

# errors: a missing column, a NaN cell, a missing file (exit 1, file named)
set +e
"$PMUSCOPE" cpistack --cycles nope "$fx/cbench-excerpt.tsv" 2>"$tmp/err"; rc=$?
set -e
[ $rc -eq 1 ] || fail "missing column gave $rc"
grep -q "no column named 'nope'" "$tmp/err" || fail "missing column message: $(cat "$tmp/err")"
printf 'cycles,instructions,branch-misses\n10,5,1\n12,6,\n13,6,2\n15,7,3\n' >"$tmp/nan.csv"
set +e
"$PMUSCOPE" cpistack --split 1 "$tmp/nan.csv" 2>"$tmp/err"; rc=$?
set -e
[ $rc -eq 1 ] || fail "NaN cell gave $rc"
# the library's message, and the CLI's flag that drops such intervals
want="nan.csv:3: column 'branch-misses': expected a count (0 or more), found an empty or NaN cell; such intervals"
grep -q "$want can be dropped (--drop-missing)$" "$tmp/err" || fail "NaN message: $(cat "$tmp/err")"
"$PMUSCOPE" cpistack --split 1 --drop-missing "$tmp/nan.csv" 2>"$tmp/err" | grep -q "^intervals: 3 used.*(1 dropped: missing counts)" \
  || fail "--drop-missing: $(cat "$tmp/err")"
set +e
"$PMUSCOPE" cpistack "$tmp/none.csv" 2>"$tmp/err"; rc=$?
set -e
[ $rc -eq 1 ] && grep -q "cannot open .*none.csv" "$tmp/err" || fail "missing file"
echo "cpistack: ok"
