#!/usr/bin/env bash
# Each command driven to its degenerate cases: nothing to analyse (an empty file, a command
# that exits at once, zero samples, a --truth that overlaps no interval) exits 1 with a
# message saying what was missing; where something is left to report (one interval, a
# constant counter, an exact fit, one sampled IP), every output (text, JSON, CSV, SVG)
# is written without a "nan" or "inf" as a number: JSON has null and a KEY_reason beside
# it, the text says why.
set -uo pipefail
. "$PMS_SOURCE_DIR/tests/lib/degenerate.sh"

# ---- phase: nothing to analyse
: >"$tmp/empty"
refused "phase on an empty file" "nothing to analyse: no intervals in .*empty" "$P" phase "$tmp/empty"
refused "phase on an empty SimPoint file" "nothing to analyse: no intervals in .*SimPoint" \
    "$P" phase --format simpoint "$tmp/empty"
refused "phase -- /bin/true" "nothing to analyse: no samples from /bin/true" "$P" phase -- /bin/true
if perf record -q -e cpu-clock -c 1000000000 -o "$tmp/zero.data" -- /bin/true >/dev/null 2>&1; then
    [ "$(perf script -i "$tmp/zero.data" 2>/dev/null | wc -l)" -eq 0 ] || fail "zero.data has samples"
    refused "phase on zero samples" "nothing to analyse: no intervals in .*zero.data" "$P" phase "$tmp/zero.data"
    refused "olr on zero samples" "zero.data: no samples" "$P" olr "$tmp/zero.data"
fi
# a known schedule far from the run's times; exp-bbv intervals carry no times at all
printf '0 1000 early\n' >"$tmp/truth"
refused "phase --truth that overlaps nothing (perf.data)" \
    "--truth .*truth: no interval overlaps the known schedule" \
    "$P" phase --truth "$tmp/truth" "$F/olr/group.data"
refused "phase --truth on exp-bbv" "carry no times to match the known schedule.*\(--truth functions labels exp-bbv intervals, with --pc\)" \
    "$P" phase --truth "$tmp/truth" "$F/bbv/two.bb"

# ---- phase: one interval (nothing predicted, no metric): every output says why
printf 'T:1:5 :2:7\n' >"$tmp/one.bb"
clean "phase on one interval" "$P" phase --json="$tmp/o/p.json" --csv="$tmp/o/p.csv" --svg "$tmp/o/p.svg" \
    --write-bb "$tmp/o/p.bb" "$tmp/one.bb"
grep -q "accuracy and false changes: fewer than 2 intervals: nothing was predicted" "$tmp/o/stdout" ||
    fail "phase one interval: the text does not say why accuracy is missing"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["summary"]["predictors"]["last"]
assert d["accuracy"] is None and "nothing was predicted" in d["accuracy_reason"], d' "$tmp/o/p.json" ||
    fail "phase one interval: JSON accuracy reason"

# ---- olr: two samples, all-zero and constant counters
printf 'x,a,b\n1,0,5\n2,0,5\n3,0,5\n4,0,5\n' >"$tmp/flat.csv"
for m in wm opt; do
    clean "olr --method $m on constant counters" "$P" olr --method "$m" --json="$tmp/o/o.json" \
        --csv="$tmp/o/o.csv" --decode "$tmp/o/d.csv" --samples "$tmp/o/s.csv" --svg "$tmp/o/o.svg" "$tmp/flat.csv"
done
printf 'x,a\n1,10\n' >"$tmp/single.csv"
refused "olr on one sample" "a single sample" "$P" olr "$tmp/single.csv"

# ---- cpistack: cycles never counted; an exact fit with a constant CPI
printf 'cycles,instructions,cache-misses\n0,50,1\n0,100,2\n0,150,3\n0,200,1\n0,250,7\n0,300,3\n' >"$tmp/nocycles.csv"
refused "cpistack with cycles 0 throughout" "nothing to analyse: the cycles are 0 in all 5 training intervals" \
    "$P" cpistack "$tmp/nocycles.csv"
printf 'cycles,instructions,cache-misses\n200,100,1\n400,200,7\n600,300,2\n800,400,9\n1000,500,3\n1200,600,1\n' \
    >"$tmp/exact.csv"
clean "cpistack on an exact fit" "$P" cpistack --json="$tmp/o/c.json" --csv="$tmp/o/c.csv" --svg "$tmp/o/c.svg" \
    "$tmp/exact.csv"
grep -q "Durbin-Watson: - (undefined: the residuals are all 0)" "$tmp/o/stdout" || fail "cpistack: DW note"
grep -q "(-: undefined, 0/0: the residuals are all 0" "$tmp/o/stdout" || fail "cpistack: R-squared note"

# ---- estimate: a counter constant over the fitting runs
printf 'run,cycles,a,b\nR1,100,10,5\nR2,200,20,5\nR3,300,30,5\nR4,400,40,5\nR5,500,50,5\n' >"$tmp/const.csv"
clean "estimate with a constant counter" "$P" estimate "$tmp/const.csv" --train 1-4 --test 5 \
    --json="$tmp/o/e.json" --csv="$tmp/o/e.csv" --svg "$tmp/o/e.svg"
grep -q "the counter is constant over the fitting runs" "$tmp/o/stdout" || fail "estimate: constant note"

# ---- stat and report on a command that exits at once
clean "stat -- /bin/true" "$P" stat -r 2 -o "$tmp/o/stat.txt" -- /bin/true
clean "stat --json -- /bin/true" "$P" stat -r 2 --json="$tmp/o/stat.json" -- /bin/true
clean "stat -x, -- /bin/true" "$P" stat -x, -o "$tmp/o/stat.csv" -- /bin/true
clean "stat --wide -I 10 -- /bin/true" "$P" stat --wide -I 10 -o "$tmp/o/stat.wide" -- /bin/true
if [ -f "$tmp/zero.data" ]; then
    clean "report on zero samples" "$P" report -i "$tmp/zero.data" --json="$tmp/o/r.json" --csv="$tmp/o/r.csv" \
        --html "$tmp/o/r.html"
fi

[ "$failures" -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "all degenerate cases ok"
