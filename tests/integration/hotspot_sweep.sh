#!/bin/bash
# pmuscope hotspot --sweep on the hotspots workload: valgrind once (--record-truth),
# then three sweeps (each run with its own --seed, so its period randomisation differs;
# the JSON says the seed).
# The trends follow the number of samples, not the period itself, and a period of cpu-clock
# gives as many samples as the command's CPU time holds (a faster machine, fewer: the CI
# machine once had a dozen at 16M). So the periods are set from the command's CPU time T
# (task-clock, `perf stat`; cpu-clock is sampled, also with a PMU) for a fixed number of
# samples by construction: T/2000, T/500 and T/25 (64K, 256K and about 6M here), whatever
# the machine's speed or load.
# Averaged over the runs, the sampled hotspots get worse as the samples thin out: NRMSE_SR
# rises, the sample coverage SC and Kendall's tau fall from 2000 to 25 samples. On the
# default run OD does not follow the paper (see README, hotspot): its five loops spread
# their samples over the ~8 instructions of one basic block, and OD mostly measures that
# spread, which collapses when a few dozen samples are left: mean OD at 25 samples is below
# that at 500 (0.09 to 0.17 against 0.21 to 0.28 in 12 triples here). (Whether it rises
# from 2000 to 500 samples, as from 64K to 256K, went either way: 7 of 9 triples.)
# That check is not the paper's claim (OD rises with the period): it asserts the opposite, a
# property of the measure where many sampled IPs share one block. The paper's claim in a
# deterministic form is unit/test_hotspot_od_expectation: OD's expectation at fixed sample
# counts under seeded ideal sampling, which rises at every step from 4000 to 15 samples on
# --spread when each block is sampled at one IP, and falls from 4000 to 60 on the default
# run when the samples spread over each block's instructions.
# `hotspots --spread` (16 blocks of close counts, each sampled on one instruction) is
# where the paper's trend shows: over four full sweeps (T/3500 doubling up to T*256/3500:
# 64K..16M here, about 3500 down to 14 samples) the mean OD at the longest period is more
# than twice that at the shortest and the largest, and OD of the three longest is above
# that of the five shortest on average. (At the short periods a few samples right after
# ld.so's start-up cpuid instructions, which trap to the hypervisor on this VM, add a bump;
# the Spearman correlation of mean OD with log period, 0.5 to 0.88 here, is printed, not
# asserted.)
# ctest-labels: serial;no-sanitize
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cmd=("$PMS_WORKLOADS/hotspots")

# The command's CPU time in ns, as perf counts it.
cpu_ns() { perf stat -x, -e task-clock -- "$@" 2>&1 >/dev/null | awk -F, '$3 ~ /^task-clock/ { printf "%d", $1 * 1e6 }'; }

"$PMUSCOPE" hotspot --record-truth "$tmp/truth" -- "${cmd[@]}"
t=$(cpu_ns "${cmd[@]}")
periods=$((t / 2000)),$((t / 500)),$((t / 25))
echo "hotspots: $t ns of task-clock; periods $periods ns (2000, 500 and 25 samples)"
runs=3
for r in $(seq $runs); do
    "$PMUSCOPE" hotspot --sweep "$periods" -e cpu-clock:u --truth "$tmp/truth" --seed "$r" --json -o "$tmp/run$r.json" -- "${cmd[@]}"
    jq -e '.periods | length == 3' "$tmp/run$r.json" >/dev/null || fail "three periods"
    jq -e --argjson r "$r" '.randomized and .seed == $r' "$tmp/run$r.json" >/dev/null || fail "the JSON does not say seed $r"
    # 4 and 80 times the period: far fewer samples
    jq -e '.periods[0].samples > 2 * .periods[1].samples and .periods[1].samples > 16 * .periods[2].samples' \
        "$tmp/run$r.json" >/dev/null || fail "samples per period: $(jq -c '[.periods[].samples]' "$tmp/run$r.json")"
done

mean() { jq -s "[.[].periods[$1].$2] | add / length" "$tmp"/run*.json; }
for i in 0 1 2; do
    echo "period $(jq ".periods[$i].period" "$tmp/run1.json"): samples $(mean $i samples) NRMSE_SR $(mean $i nrmse_sr)" \
         "SC $(mean $i sc) OD $(mean $i od) tau $(mean $i kendall_tau_b)"
done
awk -v a="$(mean 0 nrmse_sr)" -v b="$(mean 2 nrmse_sr)" 'BEGIN{exit !(b > a)}' || fail "NRMSE_SR does not rise"
awk -v a="$(mean 0 sc)" -v b="$(mean 2 sc)" 'BEGIN{exit !(b < a)}' || fail "SC does not fall"
awk -v a="$(mean 0 kendall_tau_b)" -v b="$(mean 2 kendall_tau_b)" 'BEGIN{exit !(b < a)}' || fail "tau does not fall"
awk -v a="$(mean 1 od)" -v b="$(mean 2 od)" 'BEGIN{exit !(b < a)}' || fail "OD does not fall from 500 to 25 samples"
# OD is 0 when every sampled IP sits at its block's own level: with a dozen samples at 16M on a
# fast machine one IP in the hottest block can be all there is (seen in CI), so 0 is a valid answer.
jq -s -e '[.[].periods[].od] | all(type == "number" and . >= 0)' "$tmp"/run*.json >/dev/null || fail "OD not a number >= 0"

# The paper's trend on many close blocks: 4 full sweeps, one truth.
spread=("$PMS_WORKLOADS/hotspots" --spread)
"$PMUSCOPE" hotspot --record-truth "$tmp/spread-truth" -- "${spread[@]}"
t=$(cpu_ns "${spread[@]}")
ladder=$(awk -v t="$t" 'BEGIN { for (i = 0; i < 9; i++) printf "%s%d", i ? "," : "", t * 2 ^ i / 3500 }')
echo "hotspots --spread: $t ns of task-clock; periods $ladder ns"
for r in 1 2 3 4; do
    "$PMUSCOPE" hotspot --sweep "$ladder" -e cpu-clock:u --truth "$tmp/spread-truth" --seed "$r" --json \
        -o "$tmp/spread$r.json" -- "${spread[@]}"
done
# mean OD per period, in period order
jq -s '[range(0; 9) as $i | [.[].periods[$i].od] | add / length]' "$tmp"/spread*.json > "$tmp/od.json"
jq -s -r '[range(0; 9) as $i | "\(.[0].periods[$i].period): samples \([.[].periods[$i].samples] | add / length | floor)"] | .[]' \
    "$tmp"/spread*.json | paste - <(jq -r '.[] | "mean OD \(.)"' "$tmp/od.json")
# Spearman's rho of mean OD against log period (no ties among float means)
jq -r '. as $od | [range(0; 9)] | sort_by($od[.]) | to_entries | map((.key - .value) | . * .) | add |
       "Spearman(mean OD, log period) = \(1 - 6 * . / (9 * 80))"' "$tmp/od.json"
jq -e '.[8] > 2 * .[0]' "$tmp/od.json" >/dev/null || fail "--spread: mean OD at the longest period is not twice that at the shortest"
# From the sixth period on (2M here) the sweeps have under 100 samples, so neighbouring
# periods can swap (4M below 2M was seen once with the one-pass callgrind truth); what holds
# is the trend: the three longest above the five shortest on average, and the longest the largest.
jq -e '(.[6:9] | add / 3) > (.[0:5] | add / 5) and .[8] == max' "$tmp/od.json" >/dev/null ||
    fail "--spread: mean OD of the three longest periods is not above that of the five shortest, or the longest is not the largest"

# Text output says what the period counts; the SVG has the three charts.
"$PMUSCOPE" hotspot --sweep 256K --truth "$tmp/truth" --no-randomize --svg "$tmp/sweep.svg" -- "${cmd[@]}" > "$tmp/out.txt"
if [ "$(jq -r .period_unit "$tmp/run1.json")" = ns ]; then
    grep -q "nanoseconds" "$tmp/out.txt" || fail "no PMU: the output must say the period is in nanoseconds"
fi
grep -q "periods      fixed (not randomised)" "$tmp/out.txt" || fail "--no-randomize not shown"
grep -q "<svg" "$tmp/sweep.svg" && grep -q "Order deviation" "$tmp/sweep.svg" || fail "SVG"
echo ok
