#!/usr/bin/env bash
# cpistack --method ridge against R: per program of the ARM excerpt (the first 2 intervals
# skipped, every other one a training interval), the CPI and misses per instruction are
# written out here with awk, and R (tests/fixtures/estimate/ridge_reference.R, the check of
# estimate --method ridge) finds at pmuscope's lambda the same coefficients (1e-8), df and GCV
# score, with GCV no lower at neighbouring lambdas or on a grid; a lambda 30% off fails. The
# same table given to estimate --method ridge gives the same lambda and coefficients (one ridge
# code). --weighted is refused with ridge; the bootstrap refits ridge.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fx=$PMS_FIXTURES
tsv=$fx/armpm/cbench-excerpt.tsv
ev=L1I_CACHE_REFILL,L1I_TLB_REFILL,L1D_CACHE_REFILL,L1D_TLB_REFILL,BRANCH_MISPRED
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v Rscript >/dev/null || fail "Rscript (r-base-core) is needed: scripts/install-deps.sh installs it"

for prog in security_sha automotive_bitcount automotive_qsort1; do
    "$PMUSCOPE" cpistack "$tsv" --where "Benchmark=$prog" --skip 2 --split 1 --method ridge -e "$ev" --json \
        > "$tmp/$prog.json"
    # the regression table: CPI and misses per instruction of the program's intervals after the first 2
    awk -F'\t' -v prog="$prog" -v ev="$ev" 'NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c
            n = split(ev, e, ","); printf "interval,CPI"; for (k = 1; k <= n; k++) printf ",%s", e[k]; print ""; next }
        $2 == prog && ++seen > 2 { i = $col["INST_RETIRED"]; printf "i%d,%.17g", seen, $col["CPU_CYCLES"] / i
            for (k = 1; k <= n; k++) printf ",%.17g", $col[e[k]] / i; print "" }' "$tsv" > "$tmp/$prog.csv"
    [ "$(($(wc -l < "$tmp/$prog.csv") - 1))" = "$(jq -r '.groups[0].result.train' "$tmp/$prog.json")" ] ||
        fail "$prog: the table and cpistack disagree on the intervals"
    jq -r '.groups[0].result | "lambda \(.ridge.lambda)", "df \(.ridge.df)", "gcv \(.ridge.gcv)",
        (.model.coefficients[] | if .name == "(Intercept)" then "intercept \(.estimate)" else "\(.name) \(.estimate)" end)' \
        "$tmp/$prog.json" > "$tmp/$prog.fit"
    Rscript "$fx/estimate/ridge_reference.R" "$tmp/$prog.csv" "$tmp/$prog.fit" || fail "$prog: ridge differs from R"
    awk '$1 == "lambda" { $2 = $2 * 1.3 } 1' "$tmp/$prog.fit" > "$tmp/$prog.off"
    if Rscript "$fx/estimate/ridge_reference.R" "$tmp/$prog.csv" "$tmp/$prog.off" > /dev/null; then
        fail "$prog: the R check accepts a lambda 30% off"
    fi
    # one ridge: estimate on the same table
    "$PMUSCOPE" estimate "$tmp/$prog.csv" --cycles CPI --method ridge --json > "$tmp/$prog.est.json"
    jq -r '.methods[0] | "lambda \(.lambda)", "df \(.df)", "gcv \(.gcv)", "intercept \(.intercept)",
        (.coefficients | to_entries[] | "\(.key) \(.value)")' "$tmp/$prog.est.json" > "$tmp/$prog.est.fit"
    cmp -s <(sort "$tmp/$prog.fit") <(sort "$tmp/$prog.est.fit") ||
        fail "$prog: cpistack's ridge and estimate's differ: $(diff <(sort "$tmp/$prog.fit") <(sort "$tmp/$prog.est.fit"))"
done

"$PMUSCOPE" cpistack "$tsv" --where Benchmark=security_sha --skip 2 --method ridge -e "$ev" --bootstrap 50 > "$tmp/out.txt"
grep -q '^ridge(formula = CPI ~ L1I_CACHE_REFILL + ' "$tmp/out.txt" || fail "text: the call"
grep -Eq '^Ridge: lambda [0-9.e+-]+ on the standardised regressors \(chosen by GCV, score [0-9.e+-]+\), effective df [0-9.]+$' \
    "$tmp/out.txt" || fail "text: the ridge line"
grep -q '(ridge regression, shrunk estimates: no standard errors, t or p values)' "$tmp/out.txt" || fail "text: no SEs"
grep -q 'bootstrap 95% percentile intervals: 50 resamples of the 55 training intervals' "$tmp/out.txt" ||
    fail "text: bootstrap of the ridge fit"
set +e
"$PMUSCOPE" cpistack "$tsv" --where Benchmark=security_sha --method ridge --weighted > /dev/null 2> "$tmp/err"
rc=$?
set -e
[ $rc -eq 1 ] && grep -q 'ridge regression is not weighted' "$tmp/err" || fail "--weighted with ridge: $(cat "$tmp/err")"
echo "cpistack_ridge: OK"
