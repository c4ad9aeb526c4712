#!/usr/bin/env bash
# Calibration of pmuscope diff. On a seeded simulation from exact counts (valgrind's callgrind
# on workloads/hotspots as it is and with hot_a's share moved 1, 2 and 5 points: the exact
# shares a profile samples; tests/tools/diff_simulate draws the profiles and diffs them as
# pmuscope diff does): A against A flags a row in no more than the FDR's share of the pairs,
# the false discovery rate with real changes stays under the FDR, power grows with the change
# and the samples, the change the diff calls detectable is found about 80% of the time, and
# with runs that differ from one another Welch's test over runs holds the rate where one run
# a side cannot. Live: pairs of recordings of the same run at three sample rates, one run a
# side and four, flag a row in few pairs (BH allows 5% of them). 400 simulated pairs give a
# rate to +-0.011 (one standard deviation at 5%): the bounds leave three.
# valgrind cannot run the sanitizer build's workloads:
# ctest-labels: no-sanitize
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v valgrind >/dev/null || fail "valgrind is needed: scripts/install-deps.sh installs it"
cd "$tmp"
sim=$PMS_BUILD_DIR/tests/diff_simulate
for s in 0 1 2 5; do
    valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=cg$s.out --log-file=cg$s.log \
        "$PMS_WORKLOADS/hotspots" --rounds 4 --shift $s || fail "callgrind on hotspots --shift $s"
done
# the exact shares: hot_a 5 points up from about 40%, hot_b 5 down
"$sim" cg0.out cg5.out --shares --reps 1 > shares.txt
awk '$5 == "hot_a" { a = $4 - $3 } $5 == "hot_b" { b = $4 - $3 } END { exit !(a > 4.9 && a < 5.1 && b < -4.9 && b > -5.1) }' \
    shares.txt || fail "exact shares: $(grep hot_ shares.txt)"
get() { tr ' ' '\n' | awk -F= -v k="$1" '$1 == k { print $2 }'; }
at_most() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
at_least() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

for n in 1000 10000 100000; do
    aa=$("$sim" cg0.out cg0.out --samples $n --reps 400 | get any_false)
    at_most "$aa" 0.083 || fail "A against A at $n samples: a row flagged in $aa of the pairs (FDR 0.05)"
    fdr=$("$sim" cg0.out cg5.out --samples $n --reps 400 | get fdr)
    at_most "$fdr" 0.083 || fail "5-point change at $n samples: false discovery rate $fdr (FDR 0.05)"
    last=0
    for s in 1 2 5; do
        power=$("$sim" cg0.out cg$s.out --samples $n --reps 400 | get power_up)
        at_least "$power" "$last" || fail "power falls from $last to $power at $s points, $n samples"
        echo "samples $n shift $s: power $power"
        last=$power
    done
done
p=$("$sim" cg0.out cg5.out --samples 10000 --reps 400 | get power_up)
at_least "$p" 0.95 || fail "5 points at 10000 samples found in only $p of the pairs"
p=$("$sim" cg0.out cg1.out --samples 100000 --reps 400 | get power_up)
at_least "$p" 0.8 || fail "1 point at 100000 samples found in only $p of the pairs"

# the detectable change: 2 points become detectable at N samples, where the printed change
# scales as 1/sqrt(N); there the 2-point change is found about 80% of the time (a little
# more: hot_b's change makes BH's threshold for hot_a less strict than the Bonferroni level
# the detectable change is computed at)
d=$("$sim" cg0.out cg2.out --samples 10000 --reps 50 | get detectable_up)
n=$(awk -v d="$d" 'BEGIN { printf "%d", 10000 * (d / 2) ^ 2 + 0.5 }')
p=$("$sim" cg0.out cg2.out --samples "$n" --reps 400 | get power_up)
at_least "$p" 0.72 && at_most "$p" 0.97 || fail "a 2-point change at $n samples, where it is detectable: power $p"
echo "detectable 2 points at $n samples: power $p"

# runs that differ from one another (Dirichlet around the exact shares, concentration 10000):
# one run a side mistakes the spread for changes, Welch over 5 runs a side does not
one=$("$sim" cg0.out cg0.out --samples 10000 --concentration 10000 --reps 400 | get any_false)
five=$("$sim" cg0.out cg0.out --samples 10000 --runs 5 --concentration 10000 --reps 400 | get any_false)
at_least "$one" 0.1 || fail "one run a side with runs that differ: only $one flagged (the test should be fooled)"
at_most "$five" 0.083 || fail "5 runs a side with runs that differ: $five of the pairs flagged (FDR 0.05)"
p=$("$sim" cg0.out cg5.out --samples 10000 --runs 5 --concentration 10000 --reps 400 | get power_up)
at_least "$p" 0.9 || fail "5 runs a side: a 5-point change found in $p of the pairs"
echo "runs that differ: one run a side flags $one of the pairs, 5 runs a side $five"

# live: 8 recordings of the same run at each of three periods; 4 pairs one run a side and
# one diff of 4 runs against 4 at each: no more than 5 of the 15 diffs may flag a row. At
# the rate BH allows (5%), 4 or more of 15 come one run in 185 (P = 0.0055), 6 or more one
# in 19,000 (P = 5.3e-5); recordings that differ for real, as the kernel's rows do (a row
# flagged in 9 of 10 pairs, docs/diff.md), flag 6 or more of 15 nearly always (P = 0.97 at
# a rate of 60%). User mode only: the workload's own code (20 of 20 pairs under two busy
# loops flagged nothing).
flagged=0
for period in 100000 40000 20000; do
    for i in 1 2 3 4 5 6 7 8; do
        "$PMUSCOPE" record -e cpu-clock:u -c $period -o r$period-$i.data -- "$PMS_WORKLOADS/hotspots" >/dev/null 2>&1
    done
    for i in 1 3 5 7; do
        rc=0; "$PMUSCOPE" diff r$period-$i.data r$period-$((i + 1)).data --fail-on-change > pair.txt || rc=$?
        [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || fail "diff failed: exit $rc"
        [ "$rc" -eq 3 ] && { flagged=$((flagged + 1)); sed -n 6p pair.txt; }
    done
    rc=0
    "$PMUSCOPE" diff r$period-1.data,r$period-3.data,r$period-5.data,r$period-7.data \
        r$period-2.data,r$period-4.data,r$period-6.data,r$period-8.data --fail-on-change > runs.txt || rc=$?
    [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || fail "diff of runs failed: exit $rc"
    [ "$rc" -eq 3 ] && { flagged=$((flagged + 1)); sed -n 6p runs.txt; }
done
echo "live A against A: $flagged of 15 diffs flagged a row"
[ "$flagged" -le 5 ] || fail "$flagged of 15 diffs of the same run flagged a row"
echo ok
