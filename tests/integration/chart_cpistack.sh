#!/usr/bin/env bash
# cpistack --svg read as a reader would (tests/tools/svg_check.py): each part of each bar
# reads back through the CPI axis as the --csv table's component, positive parts stacked up
# from 0 and negative ones down from it (ordinary least squares gives negative parts: the
# axis holds both), each bar's sum marked and read back as the table's model CPI, the
# per-interval observed CPI as cycles / instructions of the input rows, and no label over
# another (31 programs of the ARM cBench set: the names are turned or cut, with the full name
# kept in a <title>).
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/browser.sh"

# bzip2d: base 1.33, parts 0.53 + 0.62 + 2.10 - 1.72 - 1.05, model CPI 1.82
in=$PMS_FIXTURES/estimate/armpm_intervals_excerpt.tsv
"$PMUSCOPE" cpistack --group-by Benchmark --skip 2 --brief --csv="$tmp/c.csv" --svg "$tmp/c.svg" "$in" >/dev/null
awk -F, 'NR > 1 { for (i = 5; i <= 10; i++) if ($i < 0) neg++ } END { exit !(neg > 0) }' "$tmp/c.csv" ||
    fail "the excerpt gives no negative part: nothing to draw below 0"
svg_check --kind cpistack --table "$tmp/c.csv" --input "$in" --skip 2 "$tmp/c.svg" || fail "excerpt"
grep -q 'data-kind="sum"' "$tmp/c.svg" || fail "no sum marks"

arm=$PMS_SHARED/datasets/armpm-cbench/cbench-merged-intervals.tsv
if [ -r "$arm" ]; then
    "$PMUSCOPE" cpistack --group-by Benchmark --skip 2 --brief --csv="$tmp/all.csv" --svg "$tmp/all.svg" "$arm" >/dev/null 2>&1
    [ "$(($(wc -l < "$tmp/all.csv") - 1))" -ge 30 ] || fail "expected 30 programs and more"
    svg_check --kind cpistack --table "$tmp/all.csv" --input "$arm" --skip 2 "$tmp/all.svg" || fail "all programs"
else
    echo "note: $arm not found: the 31-program chart is not drawn here"
fi
echo ok
