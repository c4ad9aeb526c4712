#!/usr/bin/env bash
# Counts are never silently rounded: olr --json writes a counter's range exactly; estimate and
# cpistack, which compute in double precision, refuse a count (or a run's sum) of 2^53 or
# more naming the file, line and column; a run label of any length survives whole; labels
# that end in the same number (a1, b1) make --train/--test row numbers, and estimate says so.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$PMUSCOPE
fail() { echo "FAIL: $*"; exit 1; }

# olr: 2^53 + 1 and 2^53 + 7 are not doubles; the JSON has them digit for digit
printf 'x,a\n1,9007199254740993\n2,9007199254740995\n3,9007199254740999\n' >"$tmp/big.csv"
"$P" olr --json "$tmp/big.csv" >"$tmp/big.json"
grep -q '"y_min": 9007199254740993,' "$tmp/big.json" || fail "olr y_min: $(grep y_min "$tmp/big.json")"
grep -q '"y_max": 9007199254740999' "$tmp/big.json" || fail "olr y_max: $(grep y_max "$tmp/big.json")"

# refused WHAT MESSAGE CMD...: exit 1 with MESSAGE (fixed string) on stderr
refused() {
    local what=$1 msg=$2 rc=0
    shift 2
    "$@" >/dev/null 2>"$tmp/err" || rc=$?
    [ "$rc" -eq 1 ] && grep -qF -- "$msg" "$tmp/err" || fail "$what: exit $rc: $(cat "$tmp/err")"
    echo "ok: $what"
}
printf 'run,cycles,a,b\nR1,100,10,5\nR2,200,20,9\nR3,300,9007199254740993,16\nR4,400,40,21\nR5,500,50,25\n' \
    >"$tmp/runs.csv"
refused "estimate, a count of 2^53 + 1" \
    "runs.csv:4:3: column 'a': 9007199254740993 is 2^53 or more" "$P" estimate "$tmp/runs.csv" --train 1-4 --test 5
printf 'run,cycles,a,b\nR1,100,10,5\nR1,100,4503599627370496,5\nR1,100,4503599627370496,5\nR2,200,20,9\n' >"$tmp/sum.csv"
printf 'R3,300,30,16\nR4,410,40,21\nR5,500,50,25\nR6,640,61,30\n' >>"$tmp/sum.csv"
refused "estimate --sum-intervals, a sum of 2^53" "run R1: column 'a' sums to 2^53 or more" \
    "$P" estimate "$tmp/sum.csv" --group-by run --train 1-5 --test 6
printf 'cycles,instructions,cache-misses\n100,50,1\n200,100,9007199254740993\n300,150,3\n400,200,1\n' >"$tmp/cpi.csv"
printf '500,250,7\n600,300,3\n' >>"$tmp/cpi.csv"
refused "cpistack, a count of 2^53 + 1" "cpi.csv:3:3: column 'cache-misses': 9007199254740993 is 2^53 or more" \
    "$P" cpistack "$tmp/cpi.csv"

# what the 600 s fuzz run found: a branches count of 2e25 kept GLPK's simplex busy for over
# 20 minutes (libFuzzer's timeout); it is refused as it is read (its seed: lp-hang-huge-count.csv)
refused "estimate, the LP fuzz input" "lp-hang-huge-count.csv:2:5: column 'branches': 2.0102421555555555e+25 is 2^53" \
    "$P" estimate "$PMS_SOURCE_DIR/fuzz/corpus/estimate_runs/lp-hang-huge-count.csv" --group-by corerun --method lp

# a run label of 600 characters comes out whole (it went through a 512-byte buffer)
long=$(printf 'L%.0s' $(seq 600))
printf 'run,cycles,a,b\n%s1,100,10,5\nR2,200,20,9\nR3,300,30,16\nR4,410,40,21\nR5,500,50,25\nR6,640,61,30\n' \
    "$long" >"$tmp/long.csv"
"$P" estimate "$tmp/long.csv" --train 1-5 --test 6 --write-runs "$tmp/long.out.csv" >/dev/null
[ "$(sed -n 2p "$tmp/long.out.csv" | cut -d, -f1)" = "${long}1" ] || fail "the long label was cut"
printf 'run,cycles,a,b\n%s1,100,10,5\n%s1,200,20,9\nR3,300,30,16\n' "$long" "$long" >"$tmp/long2.csv"
refused "a long label repeated" "run label '${long}1' repeats" "$P" estimate "$tmp/long2.csv" --train 1-2 --test 3

# a1 and b1: LIST numbers are row numbers, and estimate says so
printf 'run,cycles,a,b\na1,100,10,5\nb1,200,20,9\nc3,300,30,16\nd4,410,40,21\ne5,500,50,25\nf6,640,61,30\n' \
    >"$tmp/ab.csv"
"$P" estimate "$tmp/ab.csv" --train 1-5 --test 6 2>"$tmp/err" >"$tmp/out"
grep -q "warning: runs 'a1' and 'b1' end in the same number: --train/--test numbers are row numbers" "$tmp/err" ||
    fail "no warning for a1/b1: $(cat "$tmp/err")"
grep -q "test runs (1): f6" "$tmp/out" || fail "row 6 is f6: $(grep 'test runs' "$tmp/out")"
"$P" estimate "$tmp/ab.csv" --by-index --train 1-5 --test 6 2>"$tmp/err" >/dev/null
[ ! -s "$tmp/err" ] || fail "--by-index still warns: $(cat "$tmp/err")"
echo "exact counts: ok"
