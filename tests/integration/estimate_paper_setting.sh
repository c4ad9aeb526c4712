#!/usr/bin/env bash
# pmuscope estimate in the setting of Hattori's paper, on real Cortex-A15 counts: runs TEST1..TEST50
# of one program, TEST k the sum of its first k 500 ms intervals (12 counters), fitted on TEST1-10
# (fewer runs than counters) and judged on TEST50. Against R (paper_setting_reference.R): MRA is
# R's lm with the aliased counters NA, forward is R's step(direction = "forward"), NNLS is R's
# nnls, the lasso is glmnet at the same lambda with cv.glmnet's lambda.min on the same path and
# folds; the held-out errors are R's leave-one-out refits, the intervals R's predict.lm and a
# jackknife+ recomputed in R. The programs of the bundled excerpt always; two more from the full
# ARM data set when it is there. Then the text report's order: the held-out error first.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fx=$PMS_FIXTURES
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v Rscript >/dev/null || fail "Rscript (r-base-core) is needed: scripts/install-deps.sh installs it"
Rscript -e 'library(glmnet); library(nnls)' >/dev/null 2>&1 || fail "R's glmnet and nnls are needed (r-cran-glmnet, r-cran-nnls)"

# TEST1..TEST50 of program/frequency/run $2 of the ARM merged TSV $1 (the PMU events are columns 9 on)
cumulative_runs() {
    awk -F'\t' -v want="$2" 'BEGIN { OFS = "," }
        NR == 1 { h = "run"; for (i = 9; i <= NF; i++) h = h "," $i; print h; next }
        $2 "/" $4 "/" $3 == want { k++; for (i = 9; i <= NF; i++) s[i] += $i
            if (k <= 50) { l = "TEST" k; for (i = 9; i <= NF; i++) l = l "," s[i]; print l } }' "$1"
}
flatten() { jq -r 'paths(scalars) as $p | [($p | map(tostring) | join(".")), getpath($p)] | @tsv' "$1"; }

compare() { # name tsv program [20: also the prediction interval of 20 fitting runs]
    cumulative_runs "$2" "$3" > "$tmp/$1.csv"
    [ "$(wc -l < "$tmp/$1.csv")" = 51 ] || fail "$3: fewer than 50 intervals"
    "$PMUSCOPE" estimate "$tmp/$1.csv" --train 1-10 --test 50 --method lp,mra,forward,nnls,lasso --json \
        --write-runs "$tmp/$1.runs.csv" > "$tmp/$1.json"
    flatten "$tmp/$1.json" > "$tmp/$1.tsv"
    Rscript "$fx/estimate/paper_setting_reference.R" "$tmp/$1.runs.csv" "$tmp/$1.tsv" 10 TEST50 || fail "$3: differs from R"
    [ "${4:-}" = 20 ] || return 0
    # twenty fitting runs leave MRA residual degrees of freedom: R's prediction interval
    "$PMUSCOPE" estimate "$tmp/$1.csv" --train 1-20 --test 50 --method mra --json > "$tmp/$1.20.json"
    flatten "$tmp/$1.20.json" > "$tmp/$1.20.tsv"
    Rscript "$fx/estimate/paper_setting_reference.R" "$tmp/$1.runs.csv" "$tmp/$1.20.tsv" 20 TEST50 || fail "$3: 20 runs differ from R"
    jq -e '.methods[0].test[0].interval == "t" and .methods[0].test[0].lower < .methods[0].test[0].estimate' \
        "$tmp/$1.20.json" > /dev/null || fail "$3: no t interval with residual degrees of freedom"
}

excerpt=$fx/armpm/cbench-excerpt.tsv
for p in automotive_bitcount automotive_qsort1 security_sha; do compare "$p" "$excerpt" "$p/1000/1" 20; done
arm=$PMS_SHARED/datasets/armpm-cbench/cbench-merged-intervals.tsv
if [ -r "$arm" ]; then
    for p in security_pgp_d/2000/1 bzip2d/1000/1; do
        compare "$(echo "$p" | tr / _)" "$arm" "$p"
    done
else
    echo "note: $arm not found: the three programs of the bundled excerpt only"
fi

# the lasso equals glmnet coefficient by coefficient on tables that are not degenerate
for t in mracm_runs armpm_runs_2000mhz_run1; do
    "$PMUSCOPE" estimate "$fx/estimate/$t.csv" --by-index --train 1-24 --test 25 --method lasso,nnls,mra,forward \
        --json --write-runs "$tmp/$t.runs.csv" > "$tmp/$t.json" 2> /dev/null
    flatten "$tmp/$t.json" > "$tmp/$t.tsv"
    Rscript "$fx/estimate/paper_setting_reference.R" "$tmp/$t.runs.csv" "$tmp/$t.tsv" 24 \
        "$(sed -n 26p "$tmp/$t.runs.csv" | cut -d, -f1)" exact || fail "$t: differs from R"
done

# the paper's setting in the text report: MRA keeps 9 counters and names the NA ones with why; the
# held-out error comes before the test and the fit error; the lasso reports cv.glmnet's choice
"$PMUSCOPE" estimate "$tmp/security_sha.csv" --train 1-10 --test 50 --method lp,mra,mracm,forward,nnls,lasso > "$tmp/sha.txt"
grep -Eq '^MRA +9 ' "$tmp/sha.txt" || fail "MRA row: $(cat "$tmp/sha.txt")"
grep -q "NA in R's lm (aliased, left out): SW_INCR (constant) CID_WRITE_RETIRED (constant) BRANCH_PRED (no runs left)" \
    "$tmp/sha.txt" || fail "aliased counters"
grep -Eq '^method +counters +held-out \|err\| % +test \|err\| % +fit \|err\| %' "$tmp/sha.txt" || fail "column order"
grep -q '^held-out: each fitting run estimated by the method refitted without it (leave-one-out, 10 fits' "$tmp/sha.txt" \
    || fail "held-out note"
grep -Eq '^  TEST50 +NNLS .* jackknife\+' "$tmp/sha.txt" || fail "NNLS interval"
grep -q "lasso: lambda .* (cv.glmnet's lambda.min: 10-fold cross-validation" "$tmp/sha.txt" || fail "lasso section"
# MRACM: every counter follows cycles in cumulative runs: not applicable, with the |r| it saw
grep -q 'MRACM .*NA .*|r| seen: .*is itself a high one' "$tmp/sha.txt" || fail "MRACM's explanation"
# LP leaves the constant counters out instead of using one as a second intercept
grep -q 'left out, constant over the fitting runs (a second intercept): SW_INCR CID_WRITE_RETIRED' "$tmp/sha.txt" \
    || fail "LP constants"
# the SVG has each method's held-out points and intervals as well as its fit and test errors
"$PMUSCOPE" estimate "$tmp/security_sha.csv" --train 1-10 --test 50 --method mra,nnls --svg "$tmp/sha.svg" > /dev/null
for s in "MRA held-out" "MRA fit" "MRA test" "NNLS 90% interval"; do grep -q ">$s<" "$tmp/sha.svg" || fail "--svg lacks $s"; done
echo "estimate_paper_setting: OK"
