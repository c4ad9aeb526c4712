#!/usr/bin/env bash
# pmuscope olr --decode with randomised periods: every sample comes back at its own x and
# within eps of its value. Streams: a generated series with random x steps (and a counter
# whose rate changes, with noise), and a real recording of a bundled workload with
# `record --randomize`. The check is awk's, over the sample and decoded files, not the
# decoder's own: every (counter, x) of the input appears once, |y - decoded| <= eps.
# ctest-labels: serial
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }

# check SAMPLES.csv DECODED.csv EPS: prints "samples worst-error"
check() {
  awk -F, -v eps="$3" '
    FNR == 1 { next }
    NR == FNR { for (j = 2; j <= NF; j++) want[j - 1, $1] = $j; n++; k = NF - 1; next }
    { c = ++col[$1]; if (!($1 in idx)) idx[$1] = ++nc; key = idx[$1] SUBSEP $2
      if (!(key in want)) { print "x " $2 " of " $1 " is no sample'"'"'s x"; bad = 1; exit }
      if (key in seen) { print "x " $2 " of " $1 " decoded twice"; bad = 1; exit }
      seen[key] = 1; d = $3 - want[key]; if (d < 0) d = -d; if (d > worst) worst = d
      if (d > eps) { print "x " $2 " of " $1 ": " $3 " against " want[key] " (eps " eps ")"; bad = 1; exit } }
    END { if (bad) exit 1
          if (length(seen) != n * k) { print length(seen) " decoded of " n * k; exit 1 }
          print n, worst + 0 }' "$1" "$2"
}

# A generated series: x steps uniform in [1, 2000], two counters whose rates change.
awk 'BEGIN { srand(16); print "x,a,b"; x = 0; a = 0; b = 1000
  for (i = 0; i < 4000; i++) { x += 1 + int(rand() * 2000); r = (int(i / 500) % 2) ? 3 : 40
    a += int(r * (x - px) / 100 + rand() * 5); b += int(rand() * 50); px = x; print x "," a "," b } }' > gen.csv
[ "$(cut -d, -f1 gen.csv | tail -n +2 | awk 'NR > 1 { print $1 - p } { p = $1 }' | sort -u | wc -l)" -gt 1000 ] ||
  fail "the generated x steps are not random"
for eps in 0 3 20000; do
  "$PMUSCOPE" olr --method opt --eps "$eps" --decode dec.csv gen.csv > /dev/null
  r=$(check gen.csv dec.csv "$eps") || fail "generated, eps $eps: $r"
  echo "generated, eps $eps: $r"
done

# A real stream with randomised periods: cpu-clock every 100000 ns plus up to 2^16.
"$PMUSCOPE" record -e cpu-clock -c 100000 --randomize=mask:16 --seed 7 --read page-faults,context-switches \
  -o rec.data -- "$PMS_WORKLOADS/sizes" 2 > /dev/null 2>&1 || fail "record --randomize"
"$PMUSCOPE" olr --samples rec.csv rec.data > /dev/null
n=$(tail -n +2 rec.csv | wc -l)
[ "$n" -gt 20 ] || fail "only $n samples recorded"
steps=$(tail -n +2 rec.csv | awk -F, 'NR > 1 { print $1 - p } { p = $1 }' | sort -u | wc -l)
[ "$steps" -gt $((n / 4)) ] || fail "the periods do not look randomised: $steps distinct steps in $n samples"
for eps in 0 5; do
  "$PMUSCOPE" olr --method opt --eps "$eps" --decode dec.csv rec.data > /dev/null
  r=$(check rec.csv dec.csv "$eps") || fail "recorded, eps $eps: $r"
  echo "recorded ($steps distinct x steps), eps $eps: $r"
done
echo "olr decode at own x: ok"
