#!/usr/bin/env bash
# pmuscope olr --decode with randomised periods: every sample comes back at its own x and
# within eps of its value, decoded from the segment file (--store, then --decode FILE) and
# in one run (--decode OUT INPUT); --no-x with the x given back; --lossless exactly. Streams: a generated series with random x steps (and a counter
# whose rate changes, with noise), and a real recording of a bundled workload with
# `record --randomize`. The check is awk's, over the sample and decoded files, not the
# decoder's own: every row of the input comes back with its x, |y - decoded| <= eps.
# ctest-labels: serial
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }

# check SAMPLES.csv DECODED.csv EPS: both as `olr --samples` writes them (x, counters);
# prints "samples worst-error"
check() {
  awk -F, -v eps="$3" '
    FNR == 1 { if (NR == 1) head = $0; else if ($0 != head) { print "header " $0; bad = 1; exit }; next }
    NR == FNR { x[FNR] = $1; for (j = 2; j <= NF; j++) want[FNR, j] = $j; n = FNR; k = NF; next }
    { if ($1 != x[FNR]) { print "row " FNR ": x " $1 ", the sample'"'"'s x is " x[FNR]; bad = 1; exit }
      for (j = 2; j <= k; j++) { d = $j - want[FNR, j]; if (d < 0) d = -d; if (d > worst) worst = d
        if (d > eps) { print "x " $1 " column " j ": " $j " against " want[FNR, j] " (eps " eps ")"; bad = 1; exit } }
      rows = FNR }
    END { if (bad) exit 1
          if (rows != n) { print rows - 1 " rows decoded of " n - 1; exit 1 }
          print n - 1, worst + 0 }' "$1" "$2"
}

# A generated series: x steps uniform in [1, 2000], two counters whose rates change.
awk 'BEGIN { srand(16); print "x,a,b"; x = 0; a = 0; b = 1000
  for (i = 0; i < 4000; i++) { x += 1 + int(rand() * 2000); r = (int(i / 500) % 2) ? 3 : 40
    a += int(r * (x - px) / 100 + rand() * 5); b += int(rand() * 50); px = x; print x "," a "," b } }' > gen.csv
[ "$(cut -d, -f1 gen.csv | tail -n +2 | awk 'NR > 1 { print $1 - p } { p = $1 }' | sort -u | wc -l)" -gt 1000 ] ||
  fail "the generated x steps are not random"
for eps in 0 3 20000; do
  "$PMUSCOPE" olr --method opt --eps "$eps" --decode dec.csv --store gen.olr gen.csv > /dev/null
  r=$(check gen.csv dec.csv "$eps") || fail "generated, eps $eps: $r"
  echo "generated, eps $eps: $r"
  # the segment file, read back by the decoder path
  "$PMUSCOPE" olr --decode gen.olr > dec2.csv
  r=$(check gen.csv dec2.csv "$eps") || fail "generated, eps $eps, from the file: $r"
  # without x in the file, the reader gives it
  "$PMUSCOPE" olr --method opt --eps "$eps" --store nox.olr --no-x gen.csv > /dev/null
  [ "$(stat -c %s nox.olr)" -lt "$(stat -c %s gen.olr)" ] || fail "--no-x is not smaller"
  "$PMUSCOPE" olr --decode nox.olr --x-from gen.csv -o dec3.csv
  cmp -s dec2.csv dec3.csv || fail "--no-x with --x-from decodes differently"
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
  "$PMUSCOPE" olr --method opt --eps "$eps" --store rec.olr rec.data > /dev/null
  "$PMUSCOPE" olr --decode rec.olr > dec.csv
  r=$(check rec.csv dec.csv "$eps") || fail "recorded, eps $eps: $r"
  echo "recorded ($steps distinct x steps), eps $eps: $r"
done
# lossless: the samples exactly
"$PMUSCOPE" olr --method opt --eps 5 --lossless --store rec.olr rec.data > /dev/null
"$PMUSCOPE" olr --decode rec.olr | cmp -s - rec.csv || fail "--lossless does not give the samples back"
echo "olr decode at own x: ok"
