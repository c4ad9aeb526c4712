#!/usr/bin/env bash
# phase --svg read as a reader would (tests/tools/svg_check.py): the heat map's interval axis
# is the intervals' own (a cell's edges read back as its interval's index, not a "nice"
# rounding of the count), the band above it has the same interval ticks and a legend whose
# colours name each run's phase as the --csv table says, and each cell's colour reads back
# on the colour scale as the signature entry that --json gives.
# A perf.data of the phases workload (perf record), replayed offline.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/browser.sh"

perf record -q -e cpu-clock -c 100000 -o "$tmp/perf.data" -- "$PMS_WORKLOADS/phases" >/dev/null 2>&1
"$PMUSCOPE" phase -q --csv="$tmp/phase.csv" --json="$tmp/phase.json" --svg "$tmp/phase.svg" "$tmp/perf.data" >/dev/null
n=$(($(wc -l < "$tmp/phase.csv") - 1))
[ "$n" -ge 20 ] || fail "only $n intervals"
svg_check --kind phase --table "$tmp/phase.csv" --json "$tmp/phase.json" "$tmp/phase.svg" || fail "phase chart"
# the band and the heat map are one chart: a reader compares them on one axis
[ "$(grep -c '<g class="chart"' "$tmp/phase.svg")" -eq 1 ] || fail "the band and the heat map are apart"
grep -q 'data-axis="band"' "$tmp/phase.svg" || fail "the band has no interval ticks"
echo "phase: $n intervals drawn true"
