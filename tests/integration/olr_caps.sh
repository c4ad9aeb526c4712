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
echo "olr_caps: ok"
