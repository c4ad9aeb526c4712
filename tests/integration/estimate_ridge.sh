#!/usr/bin/env bash
# pmuscope estimate --method ridge against R (ridge_reference.R): at pmuscope's lambda,
# R's solve(t(Z) Z + lambda I, t(Z) yc) on the standardised counters gives the same
# coefficients (1e-8 relative), df and GCV score, and GCV(lambda) is minimal against the
# neighbouring lambdas and a grid, on the ARM cBench intervals (one run per interval),
# the ARM per-program totals and the MRACM question's table. A lambda 30% off must fail
# the check. The default methods stay the paper's three.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fx=$PMS_FIXTURES
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/estimate.sh" # check_runs_needed
command -v Rscript >/dev/null || fail "Rscript (r-base-core) is needed: scripts/install-deps.sh installs it"

fit_of() { # json -> "name value" lines for ridge_reference.R
    jq -r '.methods[] | select(.method == "ridge") | "lambda \(.lambda)", "df \(.df)", "gcv \(.gcv)",
        "intercept \(.intercept)", (.coefficients | to_entries[] | "\(.key) \(.value)")' "$1"
}
check() { # name, then the estimate arguments
    local name=$1; shift
    "$PMUSCOPE" estimate "$@" --method ridge --json --write-runs "$tmp/$name.csv" > "$tmp/$name.json"
    fit_of "$tmp/$name.json" > "$tmp/$name.fit"
    Rscript "$fx/estimate/ridge_reference.R" "$tmp/$name.csv" "$tmp/$name.fit" || fail "$name: ridge differs from R"
    awk '$1 == "lambda" { $2 = $2 * 1.3 } 1' "$tmp/$name.fit" > "$tmp/$name.off"
    if Rscript "$fx/estimate/ridge_reference.R" "$tmp/$name.csv" "$tmp/$name.off" > /dev/null; then
        fail "$name: the R check accepts a lambda 30% off"
    fi
}
check intervals "$fx/armpm/cbench-excerpt.tsv" --group-by Timestamp
check programs "$fx/estimate/armpm_runs_2000mhz_run1.csv"
check mracm "$fx/estimate/mracm_runs.csv"

# the text report: the TABLE X row and the ridge section with lambda and coefficients
"$PMUSCOPE" estimate "$fx/estimate/armpm_runs_2000mhz_run1.csv" --by-index --train 1-24 --test 25-30 \
    --method mra,ridge > "$tmp/out.txt"
grep -Eq '^ridge +11 ' "$tmp/out.txt" || fail "ridge row of TABLE X"
grep -Eq '^ridge: lambda [0-9.e+-]+ on the standardised counters \(chosen by GCV' "$tmp/out.txt" || fail "ridge section"
grep -Eq '^  INST_RETIRED +[0-9.e+-]+$' "$tmp/out.txt" || fail "ridge coefficients"
grep -q 'left out, constant over the fitting runs: SW_INCR' "$tmp/out.txt" || fail "constant counter left out"
"$PMUSCOPE" estimate "$fx/estimate/armpm_runs_2000mhz_run1.csv" --csv > "$tmp/default.csv"
[ "$(cut -d, -f1 "$tmp/default.csv" | tr '\n' ' ')" = "method LP MRA MRACM " ] || fail "default methods changed"

# too few runs: a reason, not a fit
set +e
"$PMUSCOPE" estimate "$fx/armpm/cbench-excerpt.tsv" --sum-intervals --method ridge > "$tmp/few.txt" 2> "$tmp/few.err"
rc=$?
set -e
[ $rc -eq 1 ] || fail "no fit must exit 1"
grep -q 'ridge: 4 fitting runs for 11 varying counters: needs at least 13 runs' "$tmp/few.txt" || fail "too few runs reason"
# at least k + 2 fitting runs for k varying counters (tests/lib/estimate.sh)
check_runs_needed ridge ridge
echo "estimate_ridge: OK"
