#!/bin/bash
# pmuscope hotspot --sweep on the hotspots workload: valgrind once (--record-truth),
# then three sweeps over 64K, 256K and 16M (each run's period randomisation differs).
# Averaged over the runs, the sampled hotspots get worse as the period grows: NRMSE_SR
# rises, the sample coverage SC and Kendall's tau fall from 64K to 16M, and OD rises
# from 64K to 256K, where both periods still give hundreds of samples as in the paper.
# (At 16M the 0.3 s run gives about 12 samples over a few IPs: OD, divided by m and
# with the sampled order levels collapsed, is lower there; the test prints it.)
# ctest-labels: serial;no-sanitize
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cmd=("$PMS_WORKLOADS/hotspots")

"$PMUSCOPE" hotspot --record-truth "$tmp/truth" -- "${cmd[@]}"
runs=3
for r in $(seq $runs); do
    "$PMUSCOPE" hotspot --sweep 64K,256K,16M --truth "$tmp/truth" --json -o "$tmp/run$r.json" -- "${cmd[@]}"
    jq -e '.periods | length == 3' "$tmp/run$r.json" >/dev/null || fail "three periods"
    # 4 and 64 times the period: far fewer samples
    jq -e '.periods[0].samples > 2 * .periods[1].samples and .periods[1].samples > 16 * .periods[2].samples' \
        "$tmp/run$r.json" >/dev/null || fail "samples per period: $(jq -c '[.periods[].samples]' "$tmp/run$r.json")"
done

mean() { jq -s "[.[].periods[$1].$2] | add / length" "$tmp"/run*.json; }
for i in 0 1 2; do
    echo "period $(jq ".periods[$i].period" "$tmp/run1.json"): NRMSE_SR $(mean $i nrmse_sr) SC $(mean $i sc)" \
         "OD $(mean $i od) tau $(mean $i kendall_tau_b)"
done
awk -v a="$(mean 0 nrmse_sr)" -v b="$(mean 2 nrmse_sr)" 'BEGIN{exit !(b > a)}' || fail "NRMSE_SR does not rise"
awk -v a="$(mean 0 sc)" -v b="$(mean 2 sc)" 'BEGIN{exit !(b < a)}' || fail "SC does not fall"
awk -v a="$(mean 0 kendall_tau_b)" -v b="$(mean 2 kendall_tau_b)" 'BEGIN{exit !(b < a)}' || fail "tau does not fall"
awk -v a="$(mean 0 od)" -v b="$(mean 1 od)" 'BEGIN{exit !(b > a)}' || fail "OD does not rise from 64K to 256K"
jq -s -e '[.[].periods[].od] | all(. > 0)' "$tmp"/run*.json >/dev/null || fail "OD not positive"

# Text output says what the period counts; the SVG has the three charts.
"$PMUSCOPE" hotspot --sweep 256K --truth "$tmp/truth" --no-randomize --svg "$tmp/sweep.svg" -- "${cmd[@]}" > "$tmp/out.txt"
if [ "$(jq -r .period_unit "$tmp/run1.json")" = ns ]; then
    grep -q "nanoseconds" "$tmp/out.txt" || fail "no PMU: the output must say the period is in nanoseconds"
fi
grep -q "fixed (--no-randomize)" "$tmp/out.txt" || fail "--no-randomize not shown"
grep -q "<svg" "$tmp/sweep.svg" && grep -q "Order deviation" "$tmp/sweep.svg" || fail "SVG"
echo ok
