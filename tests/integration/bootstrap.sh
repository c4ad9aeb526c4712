#!/usr/bin/env bash
# Bootstrap intervals (--bootstrap N) of estimate's LP and ridge coefficients and of
# cpistack's NNLS coefficients, checked with R and glpsol on the very resamples pmuscope
# drew (--bootstrap-replicates): R's quantile(type = 7) of the refits gives every bound and
# each interval covers its point estimate; each LP refit reaches glpsol's optimum on its
# resample; each ridge refit is pmuscope's ridge fit of the resampled runs, which
# ridge_reference.R checks against R's algebra; each NNLS refit is R's nnls on the
# resampled intervals, which are moving blocks of ceiling(n^(1/3)). Tampered refits and
# bounds must fail these checks. The same seed gives the same resamples and intervals, another
# seed others.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fx=$PMS_FIXTURES
ref=$fx/stats/bootstrap_reference.R
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v Rscript >/dev/null || fail "Rscript (r-base-core) is needed: scripts/install-deps.sh installs it"
command -v glpsol >/dev/null || fail "glpsol (glpk-utils) is needed: scripts/install-deps.sh installs it"

# ---- estimate: LP and ridge, case resampling of the runs
runs=$fx/estimate/armpm_runs_2000mhz_run1.csv
est() { "$PMUSCOPE" estimate "$runs" --method lp,ridge --bootstrap 200 "$@"; }
est --seed 7 --json --bootstrap-replicates "$tmp/reps.csv" --write-runs "$tmp/runs.csv" > "$tmp/est.json"
jq -r '.methods[] | select(.bootstrap) | . as $m | .bootstrap.intervals | to_entries[] |
    "\($m.method) \(.key) \(.value[0]) \(.value[1]) \(if .key == "(intercept)" then $m.intercept
                                                    else ($m.coefficients[.key] // 0) end)"' \
    "$tmp/est.json" > "$tmp/est.iv"
[ "$(jq -r '[.methods[] | select(.bootstrap) | .method] | join(",")' "$tmp/est.json")" = "lp,ridge" ] ||
    fail "bootstrap intervals for lp and ridge"
[ "$(jq -r '.methods[0].bootstrap | "\(.scheme) \(.replicates) \(.ok) \(.seed)"' "$tmp/est.json")" = "cases 200 200 7" ] ||
    fail "bootstrap JSON header"
Rscript "$ref" quantiles "$tmp/reps.csv" "$tmp/est.iv" || fail "estimate intervals differ from R's quantiles"
Rscript "$ref" lp "$tmp/runs.csv" "$tmp/reps.csv" 30 || fail "LP refits against glpsol"

# each of a few ridge refits is the ridge fit of its resample, which agrees with R
for rep in 1 2 3; do
    rows=$(awk -F, -v r="$rep" '$1 == "ridge" && $2 == r { print $4 }' "$tmp/reps.csv")
    awk -F, -v rows="$rows" 'NR == 1 { print; next } { line[NR - 1] = $0 }
        END { n = split(rows, r, " "); for (k = 1; k <= n; k++) { $0 = line[r[k]]; sub(/^[^,]*/, "r" k); print } }' \
        "$tmp/runs.csv" > "$tmp/res$rep.csv"
    "$PMUSCOPE" estimate "$tmp/res$rep.csv" --method ridge --json --write-runs "$tmp/res$rep.runs" > "$tmp/res$rep.json"
    jq -r '.methods[0] | "lambda \(.lambda)", "df \(.df)", "gcv \(.gcv)", "intercept \(.intercept)",
        (.coefficients | to_entries[] | "\(.key) \(.value)")' "$tmp/res$rep.json" > "$tmp/res$rep.fit"
    Rscript "$fx/estimate/ridge_reference.R" "$tmp/res$rep.runs" "$tmp/res$rep.fit" > /dev/null ||
        fail "ridge on resample $rep differs from R"
    # the replicate's coefficients (intercept, then every counter) are that fit's
    jq -r '.methods[0] | [.intercept] + [.coefficients as $c | ($ARGS.positional[] | $c[.] // 0)] | .[]' \
        "$tmp/res$rep.json" --args $(head -1 "$tmp/runs.csv" | cut -d, -f3- | tr , ' ') > "$tmp/want$rep"
    awk -F, -v r="$rep" '$1 == "ridge" && $2 == r { for (c = 5; c <= NF; c++) print $c }' \
        "$tmp/reps.csv" > "$tmp/got$rep"
    paste "$tmp/got$rep" "$tmp/want$rep" | awk '{ d = $1 - $2; if (d < 0) d = -d; s = $2 < 0 ? -$2 : $2
        if (d > 1e-9 * s + 1e-300 && d > 0) { print "coefficient " NR ": " $1 " vs " $2; bad = 1 } } END { exit bad }' ||
        fail "ridge replicate $rep is not the ridge fit of its resample"
done

# the checks can fail: a bound moved, an LP refit off its optimum
awk 'NR == 3 { $4 = $4 * 1.001 } 1' "$tmp/est.iv" > "$tmp/bad.iv"
if Rscript "$ref" quantiles "$tmp/reps.csv" "$tmp/bad.iv" > /dev/null; then fail "a moved bound passes"; fi
awk -F, -v OFS=, '$1 == "lp" && $2 == 1 { for (c = 5; c <= NF; c++) $c = $c * 0.999 } 1' "$tmp/reps.csv" > "$tmp/bad.csv"
if Rscript "$ref" lp "$tmp/runs.csv" "$tmp/bad.csv" 1 > /dev/null; then fail "an LP refit off its optimum passes"; fi

# reproducible by seed
est --seed 7 --json --bootstrap-replicates "$tmp/reps2.csv" > "$tmp/est2.json"
cmp -s "$tmp/reps.csv" "$tmp/reps2.csv" && cmp -s "$tmp/est.json" "$tmp/est2.json" || fail "same seed, other resamples"
est --seed 8 --bootstrap-replicates "$tmp/reps3.csv" > /dev/null
cmp -s "$tmp/reps.csv" "$tmp/reps3.csv" && fail "another seed, the same resamples"

# text and CSV
est --seed 7 > "$tmp/est.txt"
grep -q '^  bootstrap 95% percentile intervals: 200 resamples of the 30 fitting runs (case resampling, seed 7)$' \
    "$tmp/est.txt" || fail "text heading"
lo=$(awk '$1 == "ridge" && $2 == "INST_RETIRED" { print $3 }' "$tmp/est.iv")
grep -Eq "^  INST_RETIRED +[-0-9.e+]+ +$(printf '%.8g' "$lo") " "$tmp/est.txt" || fail "text interval row"
est --seed 7 --csv > "$tmp/est.csv"
head -1 "$tmp/est.csv" | grep -q ',note,lower_intercept,upper_intercept,lower_SW_INCR,' || fail "CSV columns"

# ---- cpistack: NNLS, moving blocks of the training intervals in time order
ev=L1I_CACHE_REFILL,L1I_TLB_REFILL,L1D_CACHE_REFILL,L1D_TLB_REFILL,BRANCH_MISPRED
cpi() { "$PMUSCOPE" cpistack "$fx/armpm/cbench-excerpt.tsv" --group-by Benchmark --skip 2 --split 1 --method nnls \
        -e "$ev" --bootstrap 100 "$@"; }
cpi --seed 5 --json --bootstrap-replicates "$tmp/creps.csv" > "$tmp/cpi.json"
jq -r '.groups[] | .group as $g | .result.model.coefficients as $c | .result.bootstrap.intervals | to_entries[] |
    . as $e | "\($g) \(.key) \(.value[0]) \(.value[1]) \($c[] | select(.name == $e.key) | .estimate)"' \
    "$tmp/cpi.json" > "$tmp/cpi.iv"
[ "$(wc -l < "$tmp/cpi.iv")" -eq 24 ] || fail "cpistack: 4 programs x 6 intervals"
Rscript "$ref" quantiles "$tmp/creps.csv" "$tmp/cpi.iv" || fail "cpistack intervals differ from R's quantiles"
Rscript "$ref" nnls "$fx/armpm/cbench-excerpt.tsv" "$tmp/creps.csv" 2 "$ev" || fail "NNLS refits differ from R's nnls"
awk -F, -v OFS=, 'NR == 2 { $6 = $6 * 1.01 + 1e-3 } 1' "$tmp/creps.csv" > "$tmp/cbad.csv"
if Rscript "$ref" nnls "$fx/armpm/cbench-excerpt.tsv" "$tmp/cbad.csv" 2 "$ev" > /dev/null; then
    fail "a tampered NNLS refit passes"
fi
cpi --seed 5 --csv > "$tmp/cpi.csv"
head -1 "$tmp/cpi.csv" | grep -q ',true_CPI,multiplexed,lower_coef_base,upper_coef_base,lower_coef_L1I_CACHE_REFILL,' ||
    fail "cpistack CSV columns"
cpi --seed 5 > "$tmp/cpi.txt"
grep -q 'bootstrap 95% percentile intervals: 100 resamples of the 56 training intervals (moving blocks of 4, seed 5)' \
    "$tmp/cpi.txt" || fail "cpistack text heading"
cpi --seed 5 --bootstrap-block 1 > "$tmp/cases.txt"
grep -q '(case resampling, seed 5)' "$tmp/cases.txt" || fail "--bootstrap-block 1 is case resampling"

# usage errors
set +e
"$PMUSCOPE" estimate "$runs" --bootstrap 0 2> "$tmp/err"; rc1=$?
"$PMUSCOPE" cpistack "$fx/armpm/cbench-excerpt.tsv" --bootstrap-block 3 2> "$tmp/err2"; rc2=$?
set -e
[ $rc1 -eq 2 ] && grep -q -- "--bootstrap '0': expected a count from 1" "$tmp/err" || fail "--bootstrap 0"
[ $rc2 -eq 2 ] && grep -q -- "go with --bootstrap N" "$tmp/err2" || fail "--bootstrap-block alone"
echo "bootstrap: OK"
