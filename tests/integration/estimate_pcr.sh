#!/usr/bin/env bash
# pmuscope estimate --method pcr against R (pcr_reference.R): prcomp(X, scale. = TRUE)
# keeps as many components for the share asked, and lm on their scores carried back to
# the counters gives the same coefficients (1e-8 relative), on the ARM cBench intervals
# (one run per interval), the ARM per-program totals and the MRACM question's table, at
# the default share 0.99 and at others; a wrong component count must fail the check.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fx=$PMS_FIXTURES
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/estimate.sh" # check_runs_needed
command -v Rscript >/dev/null || fail "Rscript (r-base-core) is needed: scripts/install-deps.sh installs it"

check() { # name, share ("" for the default), then the estimate arguments
    local name=$1 share=$2; shift 2
    "$PMUSCOPE" estimate "$@" --method pcr ${share:+--pcr-share "$share"} --json --write-runs "$tmp/$name.csv" > "$tmp/$name.json"
    jq -r '.methods[] | select(.method == "pcr") | "components \(.components)", "variance_share \(.variance_share)",
        "intercept \(.intercept)", (.coefficients | to_entries[] | "\(.key) \(.value)")' "$tmp/$name.json" > "$tmp/$name.fit"
    Rscript "$fx/estimate/pcr_reference.R" "$tmp/$name.csv" "$tmp/$name.fit" "${share:-0.99}" || fail "$name: pcr differs from R"
}
check intervals "" "$fx/armpm/cbench-excerpt.tsv" --group-by Timestamp
check intervals90 0.9 "$fx/armpm/cbench-excerpt.tsv" --group-by Timestamp
check programs "" "$fx/estimate/armpm_runs_2000mhz_run1.csv"
check programs_all 1 "$fx/estimate/armpm_runs_2000mhz_run1.csv"
check mracm 0.8 "$fx/estimate/mracm_runs.csv"
# the check can fail: one component fewer than pmuscope kept
awk '$1 == "components" { $2 = $2 - 1 } 1' "$tmp/programs.fit" > "$tmp/off.fit"
if Rscript "$fx/estimate/pcr_reference.R" "$tmp/programs.csv" "$tmp/off.fit" 0.99 > /dev/null; then
    fail "the R check accepts a wrong component count"
fi
# share 1 keeps every component: the same fit as least squares (MRA, every counter)
jq -e '.methods[0].components == .methods[0].components_total' "$tmp/programs_all.json" > /dev/null || fail "share 1 keeps all"
"$PMUSCOPE" estimate "$fx/estimate/armpm_runs_2000mhz_run1.csv" --method mra,pcr --pcr-share 1 --json > "$tmp/both.json"
jq -e '[.methods[0].coefficients, .methods[1].coefficients] as [$m, $p] | ($m | keys) == ($p | keys)
       and all($m | keys[]; (($m[.] - $p[.]) | if . < 0 then -. else . end) <= 1e-6 * ($m[.] | if . < 0 then -. else . end))' \
    "$tmp/both.json" > /dev/null || fail "PCR with every component differs from MRA's least squares"

# the text report and usage errors
"$PMUSCOPE" estimate "$fx/estimate/armpm_runs_2000mhz_run1.csv" --method pcr > "$tmp/out.txt"
grep -Eq '^PCR +11 ' "$tmp/out.txt" || fail "PCR row of TABLE X"
grep -Eq '^PCR: [0-9]+ of 11 principal components of the standardised counters kept, explaining [0-9.]+% of their variance \(asked: 99%\)$' \
    "$tmp/out.txt" || fail "PCR section"
set +e
"$PMUSCOPE" estimate "$fx/estimate/mracm_runs.csv" --method pcr --pcr-share 1.5 > /dev/null 2> "$tmp/err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "--pcr-share 1.5 must exit 2"
grep -q "expected a number in (0, 1]" "$tmp/err" || fail "--pcr-share message"
# at least k + 2 fitting runs for k varying counters (tests/lib/estimate.sh)
check_runs_needed pcr PCR
echo "estimate_pcr: OK"
