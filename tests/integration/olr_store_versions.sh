#!/usr/bin/env bash
# Segment files of versions 2 and 3, written by the last writer of each (tests/fixtures/olr:
# segments, predictive codes, residuals, version 3's exact codes and plain chunks), decode
# with the current reader to every sample within the eps they were written with (exactly
# when lossless), at its own x; the current writer's files of the same samples are version 4
# and decode alike.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }
fix=$PMS_FIXTURES/olr

within() { # FILE EPS CSV: every sample of CSV decodes from FILE within EPS at its own x
  local csv=$3
  "$PMUSCOPE" olr --decode "$1" > dec.csv || fail "$1: --decode"
  [ "$(wc -l < dec.csv)" = "$(wc -l < "$csv")" ] || fail "$1: $(wc -l < dec.csv) lines decoded"
  paste -d, "$csv" dec.csv | awk -F, -v e="$2" -v f="$1" 'NR > 1 {
      if ($1 != $4) { print f ": row " NR ": x " $1 " decoded as " $4; bad = 1 }
      for (c = 2; c <= 3; c++) { d = $c - $(c + 3); if (d < 0) d = -d
        if (d > e) { print f ": row " NR " column " c ": " $(c + 3) " for " $c; bad = 1 } } }
    END { exit bad }' || fail "$1: decoded beyond eps $2"
}
version() { od -An -tu1 -j6 -N1 "$1" | tr -d ' '; }

for f in v2_eps5:5 v2_lossless:0 v2_segments_lossless:0 v3_eps1:1 v3_eps5:5; do
  name=${f%:*} eps=${f#*:} v=${f:1:1}
  [ "$(version "$fix/$name.olr")" = "$v" ] || fail "$name.olr is not version $v"
  within "$fix/$name.olr" "$eps" "$fix/v${v}_samples.csv"
  echo "$name.olr (version $v): every sample within $eps"
done
for csv in v2_samples.csv v3_samples.csv; do
  "$PMUSCOPE" olr --method opt --eps 5 --store now.olr "$fix/$csv" > /dev/null
  "$PMUSCOPE" olr --method opt --eps 0 --lossless --encoding segments --store now_lossless.olr "$fix/$csv" > /dev/null
  "$PMUSCOPE" olr --method opt --eps 1 --encoding predictive --store now_predictive.olr "$fix/$csv" > /dev/null
  for f in now.olr:5 now_lossless.olr:0 now_predictive.olr:1; do
    [ "$(version "${f%:*}")" = 4 ] || fail "${f%:*}: version $(version "${f%:*}"), expected 4"
    within "${f%:*}" "${f#*:}" "$fix/$csv"
  done
done
echo "olr_store_versions: ok"
