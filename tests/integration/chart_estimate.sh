#!/usr/bin/env bash
# estimate --svg read as a reader would (tests/tools/svg_check.py): every run's error reads
# back through the axes as the error of its method's model on that run (test runs: the
# --json's error_pct; fitting runs: the model's coefficients applied to the run's counts), and
# the legend tells the fitting runs (a line with dots) from the test runs (dots alone).
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/browser.sh"

in=$PMS_FIXTURES/estimate/armpm_runs_2000mhz_run1.csv
"$PMUSCOPE" estimate "$in" --train 1-25 --test 26-30 --json="$tmp/e.json" --svg "$tmp/e.svg" >/dev/null
svg_check --kind estimate --json "$tmp/e.json" --input "$in" "$tmp/e.svg" || fail "estimate chart"
echo ok
