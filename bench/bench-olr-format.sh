#!/usr/bin/env bash
# Bytes of the olr segment file (docs/olr-format.md) against lossless compressors of the
# same samples: zstd -19 and xz -9 of the samples delta-encoded as binary (8-byte little-
# endian differences, column by column), for x and the counters together, the counters
# alone and x alone. Streams: recorded from the bundled workloads (cpu-clock every 20000 ns
# reading page-faults and context-switches; the same with randomised periods; task-clock and
# page-faults with randomised periods; and, in the emulated ARM guest, reading the hardware
# counters cycles and instructions:u) and generated (a fixed period, and random x steps). Prints the ratios and the goals of issue 16:
#   G1 eps = 1 count: whole file smaller than delta+zstd of x and y
#   G2 eps = 0.1% of range: the counters' part >= 10x smaller than delta+zstd of the counters
#   G3 eps = 0.1%, fixed-period stream: whole file >= 10x smaller than delta+zstd of x and y
#   G4 randomised or jittered x: x part within 5% of zstd of its deltas
#   G5 lossless (--lossless, eps 0): whole file within 10% of delta+zstd of x and y
# eps0.1%pc is eps 0.1% with --per-counter (each counter breaks on its own). "points" are the
# end points stored (a joint or one-sample segment 1, a disjoint one 2) by the optimal
# joint/disjoint mix (Luo et al., ICDE 2015; the default for eps <= 31) and by the greedy
# choice over opt's segments (--joints greedy), with the CPU seconds of each store (median
# of 3 runs), and opt's minimum segments m of each counter on its own, plus one: the least
# points of segments that keep opt's real-valued bound; the file's lines are decoded by
# rounding to whole counts, which lets the optimal mix go below it. "guards met": samples at
# which the optimal mix met a memory guard (its end points may then not be the fewest; 0
# expected), "(greedy)" where a counter's eps is above 31. "pred" is how many counters the
# writer stored by predictive coding (version 2 of the file: each sample's difference from a
# prediction, quantised to 2 eps + 1 counts) rather than as segments, the smaller of the two;
# the counters' part ("y-part") is segments, residuals and predictive chunks together. The
# second table gives each counter's encoding, stored alone, at eps 1, eps 0.1% and lossless.
# "pred" comes with the CPU seconds of the file's store (median of 3); the points and their
# CPU seconds are those of every counter stored as segments (--encoding segments).
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
P=$build/pmuscope
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# delta-encode CSV COLUMNS...: 8-byte signed differences, column after column
delta() {
  local csv=$1; shift
  perl -e 'my @c = @ARGV; my (@col); <STDIN>;
    while (<STDIN>) { chomp; my @f = split /,/; push @{$col[$_]}, $f[$c[$_]] for 0..$#c }
    binmode STDOUT; for my $k (0..$#c) { my $p = 0; for my $v (@{$col[$k]}) { print pack("q<", $v - $p); $p = $v } }' "$@" < "$csv"
}
zbytes() { zstd -19 -q -c | wc -c; }
xbytes() { xz -9 -c | wc -c; }

streams=()
rec() { # name, record options..., --, workload...   (READ: the events read, default below)
  local name=$1; shift
  if "$P" record -e cpu-clock -c 20000 --read "${READ:-page-faults,context-switches}" -o "$name.data" "$@" > /dev/null 2>&1; then
    "$P" olr --samples "$name.csv" "$name.data" > /dev/null && streams+=("$name")
  else
    echo "($name: the recording failed)"
  fi
}
rec sizes -- "$build/workloads/sizes" 8
rec phases -- "$build/workloads/phases" --units 250 --repeat 2
rec sizes-randomized --randomize=mask:12 --seed 1 -- "$build/workloads/sizes" 8
# a counter at a steady rate over x (task-clock's nanoseconds against cpu-clock's, as cycles
# would be on a PMU) with randomised periods: the rate predictor of version 4's P chunks
READ=task-clock,page-faults rec task-clock-randomized --randomize=mask:12 --seed 1 -- "$build/workloads/sizes" 8
# The same workloads with hardware counters: cycles and instructions:u read at each cpu-clock
# sample in the emulated ARM guest of scripts/pmu-vm (as tests/pmu/cases/olr_store.sh), where
# QEMU and the arm64 cross build are at hand (PMS_ARM64_BUILD, default build-arm64).
src=$(cd "$build/.." && pwd)
if command -v qemu-system-aarch64 > /dev/null; then
  cat > guest.sh <<'GUEST'
for w in "sizes 8" "phases --repeat 2"; do
  set -- $w
  pmuscope record -e cpu-clock -c 20000 --read cycles,instructions:u -o out/$1.data -- "$@" > /dev/null 2>&1 &&
    pmuscope olr --samples out/$1.csv out/$1.data > /dev/null
done
GUEST
  if PMS_ARM64_BUILD=${PMS_ARM64_BUILD:-$src/build-arm64} "$src/scripts/pmu-vm" --add guest.sh -- sh guest.sh > /dev/null 2>&1; then
    for w in sizes phases; do
      [ -f "pmu-vm-out/$w.csv" ] && cp "pmu-vm-out/$w.csv" "guest-$w.csv" && streams+=("guest-$w")
    done
  else
    echo "(guest streams: scripts/pmu-vm failed)"
  fi
else
  echo "(guest streams: no qemu-system-aarch64)"
fi
awk 'BEGIN { srand(16); print "x,a,b"; a = 0; b = 0
  for (i = 1; i <= 100000; i++) { a += (int(i / 5000) % 2 ? 40 : 7) + int(rand() * 3); b += int(i / 20000) + (rand() < 0.1)
    print 10000 * i "," a "," b } }' > gen-fixed.csv
streams+=(gen-fixed)
awk 'BEGIN { srand(17); print "x,a,b"; x = 0; a = 0; b = 0
  for (i = 1; i <= 100000; i++) { d = 5000 + int(rand() * 10000); x += d; a += int(d * (int(i / 5000) % 2 ? 40 : 7) / 10000) + int(rand() * 3)
    b += int(i / 20000) + (rand() < 0.1); print x "," a "," b } }' > gen-random-x.csv
streams+=(gen-random-x)

# Real hardware counters: the Cortex-A15 data set's perf stat -I 500 intervals (two event
# lists, run 1 at 2 GHz), each event's cumulative count at the interval's end time (ns).
armpm=$(cd "$build/.." && pwd)/../shared/datasets/armpm-cbench/raw
for l in 1 2; do
  f=$armpm/events_list_$l/Run_1/2000000/events_raw.data
  [ -f "$f" ] || { echo "(a15-list$l: $f is missing)"; continue; }
  awk '/^Event/ || /^Start/ { next }
    NF == 3 { if (!($3 in seen)) { seen[$3] = 1; order[++ne] = $3 }
              if ($1 != last && last != "") flush(); last = $1; cnt[$3] += $2 }
    function flush(  i, r) { r = sprintf("%.0f", last * 1e9); for (i = 1; i <= ne; i++) r = r "," sprintf("%.0f", cnt[order[i]]); rows[++nr] = r }
    END { flush(); h = "x"; for (i = 1; i <= ne; i++) h = h "," order[i]; print h; for (i = 1; i <= nr; i++) print rows[i] }' \
    "$f" > "a15-list$l.csv"
  streams+=("a15-list$l")
done

printf '%-18s %7s %8s %8s %8s %8s %8s %8s | %-9s %8s %8s %8s %8s %9s\n' stream samples \
  zstd-xy xz-xy zstd-y xz-y zstd-x "" mode file x-part y-part "xy/file" "y/y-part"
goal() { printf '  %-4s %-62s %s\n' "$1" "$2" "$3"; }
for s in "${streams[@]}"; do
  csv=$s.csv
  n=$(($(wc -l < "$csv") - 1))
  ys=$(seq -s' ' 1 $(($(head -1 "$csv" | tr ',' '\n' | wc -l) - 1))) # every counter's column
  zxy=$(delta "$csv" 0 $ys | zbytes); xxy=$(delta "$csv" 0 $ys | xbytes)
  zy=$(delta "$csv" $ys | zbytes); xy=$(delta "$csv" $ys | xbytes)
  zx=$(delta "$csv" 0 | zbytes)
  printf '%-18s %7d %8d %8d %8d %8d %8d %8s\n' "$s" "$n" "$zxy" "$xxy" "$zy" "$xy" "$zx" ""
  declare -A tot=() xp=() yp=()
  for mode in eps1 eps0.1% eps0.1%pc lossless; do
    case $mode in
      eps1) args=(--eps 1) ;;
      eps0.1%) args=(--eps 0.1%) ;;
      eps0.1%pc) args=(--eps 0.1% --per-counter) ;;
      lossless) args=(--eps 0 --lossless) ;;
    esac
    "$P" olr --method opt "${args[@]}" --store "$s.olr" "$csv" > out.txt
    line=$(grep "^$s.olr: " out.txt)
    # the end points of the segments (every counter stored as segments), optimal and greedy
    points=$("$P" olr --method opt "${args[@]}" --encoding segments --store p.olr "$csv" | sed -nE 's/^p.olr: .* ([0-9]+) points$/\1/p')
    gpoints=$("$P" olr --method opt "${args[@]}" --encoding segments --joints greedy --store g.olr "$csv" | sed -nE 's/^g.olr: .* ([0-9]+) points$/\1/p')
    cpu() { for r in 1 2 3; do /usr/bin/time -f %U -o t.txt "$P" olr --method opt "${args[@]}" "$@" "$csv" > /dev/null; cat t.txt; done | sort -n | sed -n 2p; }
    topt=$(cpu --store t.olr --encoding segments); tgreedy=$(cpu --store t.olr --encoding segments --joints greedy)
    tauto=$(cpu --store t.olr)
    # opt's minimum segments of each counter on its own (the summary's rows of a per-counter
    # fit: the file stores each counter's segments apart), the stored ones and joint ones
    min=$(awk 'NR > 2 && NF >= 8 { m += $3; k++ } END { print m + k }' \
      <("$P" olr --method opt "${args[@]}" --per-counter "$csv"))
    # samples where the optimal mix met a memory guard (the note of the summary), and
    # whether a counter took the greedy choice (eps above 31)
    cut=$(sed -nE 's/^note: .* met its caps at ([0-9]+) samples.*/\1/p' out.txt); cut=${cut:-0}
    grep -q "^note: .* took the greedy joint/disjoint choice" out.txt && cut="$cut (greedy)"
    read -r t x y r p np < <(echo "$line" | sed -E 's/.*: ([0-9]+) bytes: x ([0-9]+), segments ([0-9]+), residuals ([0-9]+), predictive ([0-9]+), .*; ([0-9]+) counters predictive.*/\1 \2 \3 \4 \5 \6/')
    r=$((r + p))
    tot[$mode]=$t; xp[$mode]=$x; yp[$mode]=$((y + r))
    printf '%-18s %7s %8s %8s %8s %8s %8s %8s | %-9s %8d %8d %8d %8.2f %9.2f  pred %d (%ss), points: optimal %d (%ss, guards met %s), greedy %d (%ss), opt m+1 %d\n' "" "" "" "" "" "" "" "" "$mode" \
      "$t" "$x" "$((y + r))" "$(echo "$zxy / $t" | bc -l)" "$(echo "$zy / ($y + $r)" | bc -l)" "$np" "$tauto" "$points" "$topt" "$cut" "$gpoints" "$tgreedy" "$min"
  done
  met() { if [ "$1" = 1 ]; then echo met; else echo "NOT met"; fi; }
  goal G1 "eps 1: file ${tot[eps1]} < zstd xy $zxy" "$(met "$(echo "${tot[eps1]} < $zxy" | bc)")"
  goal G2 "eps 0.1%: counters ${yp[eps0.1%]} x 10 <= zstd y $zy" "$(met "$(echo "${yp[eps0.1%]} * 10 <= $zy" | bc)")"
  goal G2pc "eps 0.1%, per counter: counters ${yp[eps0.1%pc]} x 10 <= zstd y $zy" "$(met "$(echo "${yp[eps0.1%pc]} * 10 <= $zy" | bc)")"
  if [ "$s" = gen-fixed ]; then
    goal G3 "fixed period, eps 0.1%: file ${tot[eps0.1%]} x 10 <= zstd xy $zxy" "$(met "$(echo "${tot[eps0.1%]} * 10 <= $zxy" | bc)")"
  else
    goal G4 "x ${xp[eps1]} <= 1.05 x zstd x $zx" "$(met "$(echo "${xp[eps1]} <= 1.05 * $zx" | bc)")"
  fi
  goal G5 "lossless: file ${tot[lossless]} <= 1.10 x zstd xy $zxy" "$(met "$(echo "${tot[lossless]} <= 1.10 * $zxy" | bc)")"
  unset tot xp yp
done

# G2 per counter: each counter stored alone at eps = 0.1% of its range, its segments part
# against delta+zstd -19 of that counter. Where the range is under 1,000 counts, eps is
# below one count: the counter must come back exactly (lossless by definition).
echo
printf '%-18s %-22s %14s %10s %9s %9s %8s  %-36s %s\n' stream counter range eps zstd-y y-part ratio G2 \
  "encoding: eps 1, eps 0.1%, lossless"
for s in "${streams[@]}"; do
  csv=$s.csv
  IFS=, read -r -a cols < <(head -1 "$csv")
  for ((c = 1; c < ${#cols[@]}; c++)); do
    read -r lo hi < <(awk -F, -v c=$((c + 1)) 'NR == 2 { lo = $c } NR > 1 { hi = $c } END { printf "%.0f %.0f\n", lo, hi }' "$csv")
    range=$((hi - lo))
    z=$(delta "$csv" "$c" | zbytes)
    cut -d, -f1,$((c + 1)) "$csv" > one.csv
    encs=()
    for a in "--eps 1" "--eps 0.1%" "--eps 0 --lossless"; do
      "$P" olr --method opt $a --store one.olr one.csv > one.txt
      np=$(sed -nE 's/^one.olr: .*; ([0-9]+) counters predictive.*/\1/p' one.txt)
      if [ "$np" = 1 ]; then encs+=(predictive); else encs+=(segments); fi
    done
    "$P" olr --method opt --eps 0.1% --store one.olr one.csv > one.txt
    read -r y r < <(sed -nE 's/^one.olr: .* segments ([0-9]+), residuals ([0-9]+), predictive ([0-9]+).*/\1 \2+\3/p' one.txt)
    r=$((r))
    eps=$(awk -v r="$range" 'BEGIN { printf "%.4g", r / 1000 }')
    if [ "$range" -lt 1000 ]; then verdict="lossless by definition (eps < 1 count)"
    elif [ $(((y + r) * 10)) -le "$z" ]; then verdict=met
    else verdict="NOT met"; fi
    printf '%-18s %-22s %14d %10s %9d %9d %8.1f  %-36s %s\n' "$s" "${cols[$c]}" "$range" "$eps" "$z" "$((y + r))" \
      "$(echo "$z / ($y + $r)" | bc -l)" "$verdict" "${encs[*]}"
  done
done
