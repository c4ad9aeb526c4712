#!/usr/bin/env bash
# The CSV outputs that pmuscope demo reads (estimate --csv, cpistack --csv, hotspot --csv)
# against the same numbers in each command's --json.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
close() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; s = (a < 0 ? -a : a) + 1e-300; exit !(d <= 1e-12 * s + 1e-15) }'; }

# estimate: TABLE X, one row per method: counters, the held-out, test and fit |error| %, then
# each test run's error % and prediction interval
runs=$PMS_FIXTURES/estimate/sizes_runs.csv
"$PMUSCOPE" estimate "$runs" --train 1-8 --test 9,50 --json --csv="$tmp/e.csv" > "$tmp/e.json"
head -1 "$tmp/e.csv" | grep -qx 'method,counters,heldout_abs_error_pct,test_abs_error_pct,fit_abs_error_pct,TEST9,TEST50,TEST9_lower,TEST9_upper,TEST50_lower,TEST50_upper,interval,note' \
    || fail "estimate header: $(head -1 "$tmp/e.csv")"
for m in 0 1 2; do
    IFS=, read -r name counters held test fit e9 e50 lo9 hi9 lo50 hi50 kind note < <(sed -n "$((m + 2))p" "$tmp/e.csv")
    [ "$name" = "$(jq -r ".methods[$m].method | ascii_upcase" "$tmp/e.json")" ] || fail "row $m is $name"
    close "$held" "$(jq -r ".methods[$m].heldout_mean_abs_error_pct" "$tmp/e.json")" || fail "$name held-out error"
    close "$test" "$(jq -r ".methods[$m].test_mean_abs_error_pct" "$tmp/e.json")" || fail "$name test error"
    close "$fit" "$(jq -r ".methods[$m].fit_mean_abs_error_pct" "$tmp/e.json")" || fail "$name fit error"
    close "$e9" "$(jq -r ".methods[$m].test[0].error_pct" "$tmp/e.json")" || fail "$name TEST9"
    close "$e50" "$(jq -r ".methods[$m].test[1].error_pct" "$tmp/e.json")" || fail "$name TEST50"
    close "$lo50" "$(jq -r ".methods[$m].test[1].lower" "$tmp/e.json")" || fail "$name TEST50 lower"
    close "$hi50" "$(jq -r ".methods[$m].test[1].upper" "$tmp/e.json")" || fail "$name TEST50 upper"
    [ "$kind" = "$(jq -r ".methods[$m].test[0].interval" "$tmp/e.json")" ] || fail "$name interval kind $kind"
done
# a method that does not apply: empty numbers and the reason
"$PMUSCOPE" estimate "$PMS_FIXTURES/estimate/armpm_runs_2000mhz_run1.csv" --train 1-20 --test 21-30 \
    --csv="$tmp/arm.csv" > /dev/null
grep -q '^MRACM,,,,,.*"not applicable: no high-correlation counter' "$tmp/arm.csv" || fail "MRACM's reason: $(tail -1 "$tmp/arm.csv")"

# cpistack: one row per group, the stack as in --json
tsv=$PMS_FIXTURES/armpm/cbench-excerpt.tsv
"$PMUSCOPE" cpistack --group-by Benchmark --skip 2 --json --csv="$tmp/c.csv" "$tsv" > "$tmp/c.json"
head -1 "$tmp/c.csv" | grep -qx 'group,n,R2,test_RMSE,base,L1I_CACHE_REFILL,L1I_TLB_REFILL,L1D_CACHE_REFILL,L1D_TLB_REFILL,BRANCH_MISPRED,model_CPI,observed_CPI,true_CPI,multiplexed,note' \
    || fail "cpistack header: $(head -1 "$tmp/c.csv")"
ngroups=$(jq '.groups | length' "$tmp/c.json")
[ "$(($(wc -l < "$tmp/c.csv") - 1))" -eq "$ngroups" ] || fail "cpistack: not one row per group"
for g in $(seq 0 $((ngroups - 1))); do
    IFS=, read -r group n r2 rmse base e1 e2 e3 e4 e5 model obs true_cpi < <(sed -n "$((g + 2))p" "$tmp/c.csv")
    [ "$group" = "$(jq -r ".groups[$g].group" "$tmp/c.json")" ] || fail "group $g is $group"
    close "$base" "$(jq -r ".groups[$g].result.stack.base" "$tmp/c.json")" || fail "$group base"
    close "$e5" "$(jq -r ".groups[$g].result.stack.BRANCH_MISPRED" "$tmp/c.json")" || fail "$group BRANCH_MISPRED"
    close "$model" "$(jq -r ".groups[$g].result.stack.model_cpi" "$tmp/c.json")" || fail "$group model CPI"
    close "$true_cpi" "$(jq -r ".groups[$g].result.stack.true_cpi" "$tmp/c.json")" || fail "$group true CPI"
    close "$rmse" "$(jq -r ".groups[$g].result.test_rmse" "$tmp/c.json")" || fail "$group test RMSE"
done

# hotspot --csv writes a sweep's table: without --sweep it is a usage error
rc=0; "$PMUSCOPE" hotspot --truth "$tmp" --csv=x.csv x.data >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q -- "--csv writes a sweep" "$tmp/err" || fail "hotspot --csv without --sweep: exit $rc"
echo ok
