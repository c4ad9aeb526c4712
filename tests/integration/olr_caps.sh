#!/usr/bin/env bash
# pmuscope olr has no caps by default (a straight 200k-sample series is one segment in
# either method), and when one is given and cuts a segment, the text summary and the JSON
# both say how many segments it cut.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }

awk 'BEGIN { print "x,y"; for (i = 0; i < 200000; i++) printf "%.0f,%.0f\n", 1000 + 20000 * i, 7 + 3 * (1000 + 20000 * i) }' \
  > straight.csv
capped() { awk -F': ' '/capped_segments/ { sub(",", "", $2); print $2 }' "$1"; }
segments() { awk -F': ' '/"segments"/ { sub(",", "", $2); print $2 }' "$1"; }
for m in wm opt; do
  "$PMUSCOPE" olr --method $m --json=$m.json straight.csv > $m.txt
  [ "$(segments $m.json)" = 1 ] && [ "$(capped $m.json)" = 0 ] || fail "$m: $(cat $m.json)"
  ! grep -q "cut by a cap" $m.txt || fail "$m: a note without a cap: $(cat $m.txt)"
  "$PMUSCOPE" olr --method $m --max-len 65536 --json=$m-cap.json straight.csv > $m-cap.txt
  [ "$(segments $m-cap.json)" = 4 ] && [ "$(capped $m-cap.json)" = 3 ] || fail "$m capped: $(cat $m-cap.json)"
  grep -q "^note: y: 3 of 4 segments cut by a cap" $m-cap.txt || fail "$m capped: $(cat $m-cap.txt)"
done

# The segment file's optimal joint/disjoint mix says whenever its end points may not be the
# fewest: for counters above eps 31 (the greedy choice) and where a memory guard was met
# (tests/unit/test_olr_mixed_starts and test_olr_store_guard); never otherwise, not even on
# a sparse step counter whose flat runs wake thousands of line starts at once (they met the
# 4,096-start cap this program once had). Every sample decodes within eps.
"$PMUSCOPE" olr --method opt --eps 3 --store s.olr straight.csv > s.txt
! grep -q "^note:" s.txt || fail "a note on the straight series at eps 3: $(cat s.txt)"
"$PMUSCOPE" olr --method opt --eps 1000 --store g.olr straight.csv > g.txt
grep -q "^note: g.olr: 1 counters with eps above 31 took the greedy joint/disjoint choice" g.txt || fail "$(cat g.txt)"
awk 'BEGIN { print "x,y"; s = 3; y = 0
  for (i = 0; i < 30000; i++) { s = (s * 16807) % 2147483647; if (s % 500 == 0) y += 1 + s % 3; print 1000 * (i + 1) "," y } }' \
  > steps.csv
for eps in 1 2; do
  "$PMUSCOPE" olr --method opt --eps $eps --store steps.olr steps.csv > steps.txt
  ! grep -q "^note:" steps.txt || fail "steps, eps $eps: $(cat steps.txt)"
  "$PMUSCOPE" olr --decode steps.olr > dec.csv
  paste -d, steps.csv dec.csv | awk -F, -v eps=$eps 'NR > 1 { d = $2 - $4; if (d < 0) d = -d; if ($1 != $3 || d > eps) bad++ }
    END { exit bad > 0 }' || fail "steps: decoded samples off by more than eps $eps"
done
echo "olr_caps: ok"
