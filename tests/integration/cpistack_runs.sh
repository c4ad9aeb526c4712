#!/usr/bin/env bash
# pmuscope cpistack where the counts come from: CPI from one run of two event lists measured apart
# (against R's lm on the raw ARM files), multiplexed intervals as perf marks them (kept, weighted
# as R's weighted lm, dropped, refused), a group too small to fit among others that fit, and the
# stack under four models side by side (against R's lm and nnls).
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fx=$PMS_FIXTURES
fail() { echo "FAIL: $*" >&2; exit 1; }
close() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; s = (b < 0 ? -b : b); exit !(d <= t * s) }'; }
command -v Rscript >/dev/null || fail "Rscript (r-base-core) is needed: scripts/install-deps.sh installs it"
ref() { Rscript "$fx/cpistack/runs_reference.R" "$@"; }
val() { awk -v k="$1" '{ v = $NF; $NF = ""; sub(/ $/, ""); if ($0 == k) print v }' "$2"; }

# two event lists measured in separate runs, both with CPU_CYCLES: CPI divides the cycles and the
# instructions of list 2, never list 1's cycles by list 2's instructions
l1=$fx/armpm/events_list_1-run1-1GHz-head.data l2=$fx/armpm/events_list_2-run1-1GHz-head.data
"$PMUSCOPE" cpistack --split 1 --json "$l1" "$l2" > "$tmp/lists.json"
"$PMUSCOPE" cpistack --split 1 "$l1" "$l2" > "$tmp/lists.txt"
jq -e '.groups[0].result | .cycles == "CPU_CYCLES@2" and .instructions == "INST_RETIRED" and .cpi_run == 2' \
    "$tmp/lists.json" > /dev/null || fail "CPI columns: $(jq -c '.groups[0].result | [.cycles, .instructions]' "$tmp/lists.json")"
grep -q '^CPI = CPU_CYCLES@2 / INST_RETIRED, both counted in run 2 of the merged files$' "$tmp/lists.txt" || fail "text"
ref lists "$l1" "$l2" > "$tmp/lists.ref"
r2=$(jq '.groups[0].result.model.r_squared' "$tmp/lists.json")
close "$r2" "$(val one_run_r_squared "$tmp/lists.ref")" 1e-10 || fail "R^2 $r2: not R's with one run's cycles"
close "$r2" "$(val two_runs_r_squared "$tmp/lists.ref")" 1e-6 && fail "R^2 $r2 is that of two runs' counts"
# the other run's cycles named by hand: fitted, with a warning that CPI mixes two runs
"$PMUSCOPE" cpistack --split 1 --cycles CPU_CYCLES "$l1" "$l2" > /dev/null 2> "$tmp/mixed.err"
grep -q "warning: cycles 'CPU_CYCLES' (run 1) and instructions 'INST_RETIRED' (run 2) come from two runs" "$tmp/mixed.err" \
    || fail "no warning for two runs: $(cat "$tmp/mixed.err")"

# multiplexing as perf stat -I -x, prints it: the running share in the pct field (every 7th interval's
# cache-misses counted half the time)
python3 - "$tmp/mux.csv" <<'EOF'
import random, sys
random.seed(5)
out = ["# started on Thu Jan  1 00:00:00 2024", ""]
for i in range(1, 41):
    ins, cm, bm = random.randint(800000, 900000), random.randint(500, 3000), random.randint(100, 900)
    cyc = int(0.6 * ins + 40 * cm + 20 * bm + random.gauss(0, 2000))
    for ev, v, p in (("cycles", cyc, 100.0), ("instructions", ins, 100.0),
                     ("cache-misses", cm, 50.0 if i % 7 == 0 else 100.0), ("branch-misses", bm, 100.0)):
        out.append(f"{0.1 * i:14.6f},{v},,{ev},{int(1000 * p)},{p:.2f},,")
open(sys.argv[1], "w").write("\n".join(out) + "\n")
EOF
ref weighted "$tmp/mux.csv" > "$tmp/mux.ref"
for m in keep weight drop; do "$PMUSCOPE" cpistack --split 1 --multiplexed $m --json "$tmp/mux.csv" > "$tmp/mux.$m.json"; done
jq -e '.groups[0].result | .multiplexed == 5 and .multiplexed_intervals == [7, 14, 21, 28, 35] and .min_running_pct == 50' \
    "$tmp/mux.keep.json" > /dev/null || fail "multiplexed intervals not marked"
for m in keep:plain weight:weighted; do
    coef=$(jq '.groups[0].result.model.coefficients' "$tmp/mux.${m%%:*}.json")
    close "$(echo "$coef" | jq '.[0].estimate')" "$(val "${m#*:}_base" "$tmp/mux.ref")" 1e-9 || fail "${m%%:*}: base"
    close "$(echo "$coef" | jq '.[1].estimate')" "$(val "${m#*:}_cache-misses" "$tmp/mux.ref")" 1e-9 || fail "${m%%:*}: cache-misses"
done
jq -e '.groups[0].result | .intervals == 35 and .multiplexed_dropped == 5 and .multiplexed == 0' "$tmp/mux.drop.json" \
    > /dev/null || fail "--multiplexed drop"
"$PMUSCOPE" cpistack --split 1 --multiplexed weight "$tmp/mux.csv" | grep -q '^multiplexed: 5 of the intervals used .* (as little as 50.00%), weighted by that share$' \
    || fail "weighted: text"
set +e
"$PMUSCOPE" cpistack --split 1 --multiplexed refuse "$tmp/mux.csv" > /dev/null 2> "$tmp/refuse.err"; rc=$?
set -e
[ $rc -eq 1 ] && grep -q "mux.csv: interval 7: 'cache-misses' was counted 50.00% of the time (multiplexed: perf scaled the count).* (--multiplexed)$" \
    "$tmp/refuse.err" || fail "--multiplexed refuse: $rc $(cat "$tmp/refuse.err")"
# the plain form's "(50.00%)" is read as well
awk -F, '!/^#/ && NF > 5 { printf "%14s %20s      %s%s\n", $1, $2, $4, ($6 < 100 ? "                (" $6 "%)" : "") }' "$tmp/mux.csv" > "$tmp/mux.txt"
"$PMUSCOPE" cpistack --split 1 --json "$tmp/mux.txt" | jq -e '.groups[0].result.multiplexed == 5' > /dev/null || fail "plain form"

# a group with too few intervals (network_dijkstra keeps 3 after --skip 20) beside three that fit
tsv=$fx/armpm/cbench-excerpt.tsv
"$PMUSCOPE" cpistack --group-by Benchmark --skip 20 --brief --csv="$tmp/g.csv" --json="$tmp/g.json" "$tsv" > "$tmp/g.txt" \
    2> "$tmp/g.err" || fail "a small group failed the others"
[ "$(grep -Ec '^(automotive_bitcount|automotive_qsort1|security_sha) ' "$tmp/g.txt")" = 3 ] || fail "fitted groups: $(cat "$tmp/g.txt")"
grep -q '^  network_dijkstra: fitting CPI on 2 training intervals: ' "$tmp/g.txt" || fail "the group not fitted is not named"
grep -q '^network_dijkstra,,,.*,fitting CPI on 2 training intervals' "$tmp/g.csv" || fail "CSV row of the group not fitted"
jq -e '[.groups[] | select(.fitted | not) | .group] == ["network_dijkstra"]' "$tmp/g.json" > /dev/null || fail "JSON"
grep -q 'warning: 1 of 4 groups could not be fitted' "$tmp/g.err" || fail "no warning"
# when no group fits, that is an error naming the reason
set +e
"$PMUSCOPE" cpistack --group-by Benchmark --skip 70 "$tsv" > /dev/null 2> "$tmp/none.err"; rc=$?
set -e
[ $rc -eq 1 ] && grep -q "no Benchmark could be fitted" "$tmp/none.err" || fail "no group fits: $rc $(cat "$tmp/none.err")"

# the stack under four models, each against R (base and model CPI), on every interval of security_sha
"$PMUSCOPE" cpistack --where Benchmark=security_sha --skip 2 --split 1 --compare-models --json "$tsv" > "$tmp/cmp.json"
ref models "$tsv" security_sha 2 > "$tmp/cmp.ref"
for m in "OLS" "NNLS" "per interval" "normalised"; do
    for k in base model_cpi; do
        got=$(jq --arg m "$m" --arg k "$k" '.groups[0].compare[] | select(.model == $m) | .[$k]' "$tmp/cmp.json")
        close "$got" "$(val "$m.$k" "$tmp/cmp.ref")" 1e-9 || fail "$m $k: $got, R $(val "$m.$k" "$tmp/cmp.ref")"
    done
done
"$PMUSCOPE" cpistack --where Benchmark=security_sha --skip 2 --split 1 --compare-models "$tsv" > "$tmp/cmp.txt"
grep -Eq '^ +OLS +NNLS +per interval +normalised$' "$tmp/cmp.txt" || fail "comparison header"
grep -Eq '^  base CPI from 0\.61[0-9]* to 0\.79[0-9]* across the models: the stack moves with the model' "$tmp/cmp.txt" \
    || fail "comparison spread: $(grep 'base CPI from' "$tmp/cmp.txt")"
echo "cpistack_runs: OK"
