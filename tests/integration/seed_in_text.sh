#!/usr/bin/env bash
# The text outputs of cpistack, estimate and phase say the seed wherever a seed chose
# something in the result (as record's and hotspot's do): cpistack's random split (not a
# --split 1 fit on every interval, nor the blocked split), estimate's MRACM --holdout
# split (not without --holdout), phase's random projection of the signatures (always);
# the default seed 1 when none is given. The seed also goes into their JSON.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
P=$PMUSCOPE
arm=$PMS_FIXTURES/armpm/cbench-excerpt.tsv
runs=$PMS_FIXTURES/estimate/sizes_runs.csv

# cpistack: the random split's seed on the intervals line
$P cpistack --seed 7 "$arm" >"$tmp/c7.txt"
grep -q "^intervals: .*; random split, seed 7$" "$tmp/c7.txt" || fail "cpistack --seed 7: $(head -1 "$tmp/c7.txt")"
$P cpistack "$arm" >"$tmp/c1.txt"
grep -q "^intervals: .*; random split, seed 1$" "$tmp/c1.txt" || fail "cpistack default seed: $(head -1 "$tmp/c1.txt")"
# the seed chose the split: another seed, other test intervals, another test error
[ "$(grep '^Test RMSE' "$tmp/c7.txt")" != "$(grep '^Test RMSE' "$tmp/c1.txt")" ] || fail "seeds 1 and 7 gave one test RMSE"
$P cpistack --seed 7 --split 1 "$arm" >"$tmp/all.txt"
grep -q "seed" "$tmp/all.txt" && fail "cpistack --split 1 names a seed that chose nothing"
$P cpistack --seed 7 --json "$arm" >"$tmp/c7.json"
grep -q "\"seed\": *7" "$tmp/c7.json" \
  || fail "cpistack --json: no seed 7"

# estimate: MRACM's held-out split
$P estimate "$runs" --train 1-10 --test 50 --method mracm --holdout 0.3 --seed 3 >"$tmp/e3.txt"
grep -q "held out by a random split, seed 3$" "$tmp/e3.txt" || fail "estimate --holdout --seed 3: $(cat "$tmp/e3.txt")"
$P estimate "$runs" --train 1-10 --test 50 --method mracm --seed 3 >"$tmp/e.txt"
grep -q "seed" "$tmp/e.txt" && fail "estimate without --holdout names a seed that chose nothing"
$P estimate "$runs" --train 1-10 --test 50 --method mracm --holdout 0.3 --seed 3 --json >"$tmp/e3.json"
grep -q '"seed": 3' "$tmp/e3.json" || fail "estimate --json: no seed 3"

# phase: the projection's seed in the summary
F=$PMS_FIXTURES/bbv
$P phase --pc "$F/two.pc" --seed 5 "$F/two.bb" >"$tmp/p5.txt"
grep -q "^  seed  *5 " "$tmp/p5.txt" || fail "phase --seed 5: $(grep -A4 '^summary' "$tmp/p5.txt")"
$P phase --pc "$F/two.pc" "$F/two.bb" >"$tmp/p1.txt"
grep -q "^  seed  *1 " "$tmp/p1.txt" || fail "phase default seed"
echo "seed_in_text: ok"
