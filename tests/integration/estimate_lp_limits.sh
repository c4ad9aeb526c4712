#!/usr/bin/env bash
# The LP fit at the edges of GLPK's simplex (estimate --method lp):
# - a coefficient below the solver's tolerance: on lp_tiny_coef_runs.csv glpsol's optimum
#   gives counter C a coefficient > 0 whose largest contribution is under 1e-7 of the
#   cycles; pmuscope reports C as 0 (not kept, absent from the coefficients, no tiny or
#   negative number printed), and the sum of errors is the non-negative sum of c - c^ of
#   the model as reported, within a cycle per run of glpsol's optimum;
# - a table on which GLPK's primal simplex stalls (lp_stall_runs.csv: glpsol's default ran
#   for more than 10 minutes): pmuscope reaches glpsol --dual's optimum.
# The iteration bound itself is tested in unit/test_estimate_lp (test_iteration_limit).
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fx=$PMS_FIXTURES/estimate
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v glpsol >/dev/null || fail "glpsol (glpk-utils) is needed: scripts/install-deps.sh installs it"

glpsol_col() { # glpsol -o output, column name -> activity
    awk -v n="$2" '$2 == n { print $4; exit }' "$1"
}
glpsol_obj() { awk '/^Objective:/ { print $4; exit }' "$1"; }

# ---- a coefficient below the tolerance
"$PMUSCOPE" estimate "$fx/lp_tiny_coef_runs.csv" --method lp --write-lp "$tmp/tiny.lp" --json > "$tmp/tiny.json"
glpsol --dual --lp "$tmp/tiny.lp" -o "$tmp/tiny.out" > /dev/null
xc=$(glpsol_col "$tmp/tiny.out" x_C)
cmax=$(awk -F, 'NR > 1 && $2 > m { m = $2 } END { printf "%.17g", m }' "$fx/lp_tiny_coef_runs.csv")
emax=$(awk -F, 'NR > 1 && $5 > m { m = $5 } END { print m }' "$fx/lp_tiny_coef_runs.csv")
awk -v x="$xc" -v e="$emax" -v c="$cmax" 'BEGIN { exit !(x > 0 && x * e < 1e-7 * c) }' ||
    fail "glpsol's x_C ($xc) should be > 0 and below the tolerance: the fixture no longer shows the case"
jq -e '.methods[0] | .counters == 2 and (.coefficients | has("C") | not) and .objective >= 0' "$tmp/tiny.json" \
    > /dev/null || fail "C must be reported as 0 (not kept), the objective >= 0"
# the sum of errors is that of the model as reported
sum=$(jq -r '.methods[0] | "\(.intercept) \(.coefficients.A) \(.coefficients.B)"' "$tmp/tiny.json" |
      awk -v f="$fx/lp_tiny_coef_runs.csv" '{ i = $1; a = $2; b = $3
          while ((getline line < f) > 0) { if (n++ == 0) continue; split(line, v, ",")
              e = v[2] - (i + a * v[3] + b * v[4]); s += e > 0 ? e : 0 } printf "%.17g", s }')
obj=$(jq -r '.methods[0].objective' "$tmp/tiny.json")
awk -v s="$sum" -v o="$obj" -v g="$(glpsol_obj "$tmp/tiny.out")" 'BEGIN {
    d = s - o; if (d < 0) d = -d; exit !(d <= 1e-6 * (s > 1 ? s : 1) && o >= g - 1e-6 && o <= g + 12) }' ||
    fail "objective $obj: sum of errors of the reported model $sum, glpsol $(glpsol_obj "$tmp/tiny.out")"
"$PMUSCOPE" estimate "$fx/lp_tiny_coef_runs.csv" --method lp > "$tmp/tiny.txt"
sed -n '/^LP: /,$p' "$tmp/tiny.txt" > "$tmp/tiny.lp.txt"
grep -q '2 of 3 counters kept' "$tmp/tiny.lp.txt" || fail "text: 2 of 3 counters kept"
if grep -Eq '(^|[^0-9.])-[0-9.]+e-|(^|[ ])-0([^.0-9]|$)|[0-9]e-(1[0-9]|[2-9][0-9])' "$tmp/tiny.lp.txt"; then
    fail "a tiny or negative number in the LP section: $(cat "$tmp/tiny.lp.txt")"
fi

# ---- the primal simplex's stall
"$PMUSCOPE" estimate "$fx/lp_stall_runs.csv" --method lp --write-lp "$tmp/stall.lp" --json > "$tmp/stall.json"
glpsol --dual --lp "$tmp/stall.lp" -o "$tmp/stall.out" > /dev/null
awk -v o="$(jq -r '.methods[0].objective' "$tmp/stall.json")" -v g="$(glpsol_obj "$tmp/stall.out")" \
    'BEGIN { d = o - g; if (d < 0) d = -d; exit !(d <= 1e-9 * g) }' ||
    fail "stall table: objective $(jq -r '.methods[0].objective' "$tmp/stall.json"), glpsol --dual $(glpsol_obj "$tmp/stall.out")"
echo "estimate_lp_limits: OK"
