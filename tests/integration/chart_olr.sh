#!/usr/bin/env bash
# olr --svg read as a reader would (tests/tools/svg_check.py), wm and opt: every sample reads
# back through the axes as the --samples row it is, every line end as the --csv segment's,
# and under each counter's chart a panel of each sample's error against its line (the sample
# less the --csv segment's line at its x, the first line holding it) with opt's eps band (wm:
# each line's 3 sigma band), so that the fit can be seen; units on the axes.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/browser.sh"

in=$PMS_FIXTURES/olr/group.data
for m in wm opt; do
    eps=(); [ $m = opt ] && eps=(--eps 5)
    "$PMUSCOPE" olr --method $m "${eps[@]}" --samples "$tmp/s.csv" --csv="$tmp/seg.csv" --svg "$tmp/$m.svg" "$in" >/dev/null
    e=(); [ $m = opt ] && e=(--eps 5)
    svg_check --kind olr --table "$tmp/seg.csv" --input "$tmp/s.csv" "${e[@]}" "$tmp/$m.svg" ||
        fail "olr $m chart"
    for c in page-faults context-switches; do
        grep -q "<text class=\"title\"[^>]*>$c: error of each sample" "$tmp/$m.svg" || fail "$m: no error panel for $c"
    done
done
echo ok
