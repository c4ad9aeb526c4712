#!/usr/bin/env bash
# Segment files of version 2, written by the last version-2 writer (tests/fixtures/olr:
# segments, predictive codes, residuals), decode with the current reader to every sample
# within the eps they were written with (exactly when lossless), at its own x; the current
# writer's files of the same samples are version 3 and decode alike.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }
fix=$PMS_FIXTURES/olr
csv=$fix/v2_samples.csv

within() { # FILE EPS: every sample of $csv decodes from FILE within EPS at its own x
  "$PMUSCOPE" olr --decode "$1" > dec.csv || fail "$1: --decode"
  [ "$(wc -l < dec.csv)" = "$(wc -l < "$csv")" ] || fail "$1: $(wc -l < dec.csv) lines decoded"
  paste -d, "$csv" dec.csv | awk -F, -v e="$2" -v f="$1" 'NR > 1 {
      if ($1 != $4) { print f ": row " NR ": x " $1 " decoded as " $4; bad = 1 }
      for (c = 2; c <= 3; c++) { d = $c - $(c + 3); if (d < 0) d = -d
        if (d > e) { print f ": row " NR " column " c ": " $(c + 3) " for " $c; bad = 1 } } }
    END { exit bad }' || fail "$1: decoded beyond eps $2"
}
version() { od -An -tu1 -j6 -N1 "$1" | tr -d ' '; }

for f in v2_eps5:5 v2_lossless:0 v2_segments_lossless:0; do
  name=${f%:*} eps=${f#*:}
  [ "$(version "$fix/$name.olr")" = 2 ] || fail "$name.olr is not version 2"
  within "$fix/$name.olr" "$eps"
  echo "$name.olr (version 2): every sample within $eps"
done
"$PMUSCOPE" olr --method opt --eps 5 --store now.olr "$csv" > /dev/null
"$PMUSCOPE" olr --method opt --eps 0 --lossless --encoding segments --store now_lossless.olr "$csv" > /dev/null
for f in now.olr:5 now_lossless.olr:0; do
  [ "$(version "${f%:*}")" = 3 ] || fail "${f%:*}: version $(version "${f%:*}"), expected 3"
  within "${f%:*}" "${f#*:}"
done
echo "olr_store_versions: ok"
