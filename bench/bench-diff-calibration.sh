#!/usr/bin/env bash
# How often `pmuscope diff` cries wolf and how often it finds a real change: a seeded
# simulation from exact counts. valgrind's callgrind counts every instruction of
# workloads/hotspots, as it is and with hot_a's share moved by 1, 2 and 5 points from hot_b
# (--shift); each function's exact share is what a profile samples. tests/tools/diff_simulate
# draws REPS pairs of profiles of N samples from those shares (multinomial, GSL's MT19937,
# seed 1) and diffs them as pmuscope diff does. Printed: the false-positive rate (runs of A
# against A with any row flagged; BH keeps it at or under the FDR, 0.05), the false discovery
# rate with true changes, the power to find hot_a's rise, and the detectable change the
# diff printed for hot_a (80% power were it the only change). Then runs that differ from one
# another (each run's shares drawn from a Dirichlet around the exact ones, concentration
# 10000: a 0.5-point spread on hot_a), one run a side (the two-proportion test cannot tell
# that spread from a change) against 5 runs a side (Welch's test of the runs' shares).
# Last, the time of one diff of two recordings beside `perf diff` on the same two files
# (medians of RUNS, wall and CPU). tests/integration/diff_calibration.sh asserts the rates.
# usage: bench-diff-calibration.sh [BUILD]   (env REPS, default 1000; RUNS, default 5)
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
reps=${REPS:-1000}
runs=${RUNS:-5}
sim=$build/tests/diff_simulate
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in 0 1 2 5; do
  valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file="$tmp/cg$s.out" --log-file="$tmp/cg$s.log" \
    "$build/workloads/hotspots" --rounds 4 --shift "$s"
done
echo "exact shares (valgrind, hotspots --rounds 4), BASE and --shift 5:"
"$sim" "$tmp/cg0.out" "$tmp/cg5.out" --shares --reps 1 | awk '/^# share/ && $3 > 1 { printf "  %-6s %6.2f%% %6.2f%%\n", $5, $3, $4 }'
field() { tr ' ' '\n' | awk -F= -v k="$1" '$1 == k { print $2 }'; }

echo
echo "one run a side (two-proportion test, continuity correction), FDR 0.05, $reps pairs each:"
printf "  %8s  %14s  %9s  %9s  %9s  %9s  %s\n" samples "A/A any flag" "FDR s=5" "power s=1" "power s=2" "power s=5" \
  "detectable (pp) s=1/2/5"
for n in 1000 10000 100000; do
  aa=$("$sim" "$tmp/cg0.out" "$tmp/cg0.out" --samples $n --reps "$reps" | field any_false)
  line="  $(printf '%8s  %14s' $n "$aa")"
  fdr=$("$sim" "$tmp/cg0.out" "$tmp/cg5.out" --samples $n --reps "$reps" | field fdr)
  line="$line  $(printf '%9s' "$fdr")"
  det=""
  for s in 1 2 5; do
    out=$("$sim" "$tmp/cg0.out" "$tmp/cg$s.out" --samples $n --reps "$reps")
    line="$line  $(printf '%9s' "$(echo "$out" | field power_up)")"
    det="$det$(echo "$out" | field detectable_up)/"
  done
  echo "$line  ${det%/}"
done

echo
echo "runs that differ (Dirichlet concentration 10000), 10000 samples a run, A against A, $reps pairs:"
printf "  %-28s  %14s\n" test "A/A any flag"
one=$("$sim" "$tmp/cg0.out" "$tmp/cg0.out" --samples 10000 --concentration 10000 --reps "$reps" | field any_false)
printf "  %-28s  %14s\n" "1 run a side, two-proportion" "$one"
five=$("$sim" "$tmp/cg0.out" "$tmp/cg0.out" --samples 10000 --runs 5 --concentration 10000 --reps "$reps" | field any_false)
printf "  %-28s  %14s\n" "5 runs a side, Welch" "$five"
pow=$("$sim" "$tmp/cg0.out" "$tmp/cg5.out" --samples 10000 --runs 5 --concentration 10000 --reps "$reps" | field power_up)
printf "  %-28s  %14s\n" "5 runs a side, power s=5" "$pow"

echo
echo "time of one diff of two recordings (hotspots, cpu-clock every 20 us), medians of $runs:"
for f in a b; do
  "$build/pmuscope" record -e cpu-clock -c 20000 -o "$tmp/$f.data" -- "$build/workloads/hotspots" >/dev/null 2>&1
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# "WALL CPU" seconds of a command: wall clock, and user + system of the command and its children
timed() {
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f '%U %S' -o "$tmp/time" "$@" > /dev/null 2>&1
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" '{ printf "%.4f %.4f\n", b - a, $1 + $2 }' "$tmp/time"
}
for i in $(seq "$runs"); do
  timed "$build/pmuscope" diff "$tmp/a.data" "$tmp/b.data" >> "$tmp/pms.t"
  timed perf diff "$tmp/a.data" "$tmp/b.data" >> "$tmp/perf.t"
done
pw=$(cut -d' ' -f1 "$tmp/pms.t" | median) pc=$(cut -d' ' -f2 "$tmp/pms.t" | median)
fw=$(cut -d' ' -f1 "$tmp/perf.t" | median) fc=$(cut -d' ' -f2 "$tmp/perf.t" | median)
printf "  pmuscope diff: wall %.3f s, CPU %.3f s;  perf diff: wall %.3f s, CPU %.3f s;  ratio wall %.2f, CPU %.2f\n" \
  "$pw" "$pc" "$fw" "$fc" "$(awk -v a="$pw" -v b="$fw" 'BEGIN { print a / b }')" \
  "$(awk -v a="$pc" -v b="$fc" 'BEGIN { print (b > 0 ? a / b : 0) }')"
