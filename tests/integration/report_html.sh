#!/usr/bin/env bash
# pmuscope report --html: the hotspot table of one recording and a bar chart of the top
# shares with their intervals, in a page that stands alone.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$tmp"
"$PMUSCOPE" record -e cpu-clock -c 100000 -o hot.data -- "$PMS_WORKLOADS/hotspots" >/dev/null 2>&1
"$PMUSCOPE" report -i hot.data --limit 8 --html page.html > text.txt
"$PMUSCOPE" report -i hot.data --limit 8 --csv > rows.csv
[ -s page.html ] || fail "no page"
grep -q "hot_a" text.txt || fail "the text report still goes to stdout"

# the table: the same rows as the CSV report, in order, shares in percent
rows=$(grep -c '^<tr><td class="num">' page.html)
[ "$rows" -eq "$(($(wc -l < rows.csv) - 1))" ] || fail "$rows table rows, the CSV has $(($(wc -l < rows.csv) - 1))"
first_csv=$(sed -n 2p rows.csv | awk -F, '{printf "%.2f %s", 100 * $9, $3}')
first_html=$(grep -m1 '^<tr><td class="num">' page.html | sed 's/<[^>]*>/ /g' | awk '{print $1, $(NF)}')
[ "$first_csv" = "$first_html" ] || fail "first row: html '$first_html', csv '$first_csv'"

# the chart: one bar per row (up to 10), each split at its interval's low end, the share
# and its high end: compare the segments of hot_a's bar with the CSV's numbers
bars=$(grep -o '<title>[^<]*, low end: ' page.html | wc -l)
[ "$bars" -eq "$rows" ] || fail "$bars bars for $rows rows"
read -r share lo hi < <(grep ',hot_a,' rows.csv | awk -F, '{print 100 * $9, 100 * $10, 100 * $11}')
seg() { grep -o "<title>hot_a, $1: [^<]*" page.html | sed 's/.*: //'; }
close() { awk -v a="$1" -v b="$2" 'BEGIN { exit !((a - b) ^ 2 < 1e-4) }'; }
close "$(seg 'low end')" "$lo" || fail "low end $(seg 'low end') != $lo"
close "$(seg 'to estimate')" "$(awk -v s="$share" -v l="$lo" 'BEGIN { print s - l }')" || fail "estimate segment"
close "$(seg 'to high end')" "$(awk -v s="$share" -v h="$hi" 'BEGIN { print h - s }')" || fail "high end segment"
# hot_a does 40% of the iterations
awk -v s="$share" 'BEGIN { exit !(s > 33 && s < 47) }' || fail "hot_a share $share% far from 40%"

# self-contained
if grep -Eio '(src|href)=|url\(|<script|<link' page.html | grep .; then fail "the page references something"; fi
grep -q "default-src 'none'" page.html || fail "no CSP"

# a page that cannot be written: exit 1, named
rc=0; "$PMUSCOPE" report -i hot.data --html /nonexistent/dir/p.html >/dev/null 2>err.txt || rc=$?
[ "$rc" -eq 1 ] && grep -q "/nonexistent/dir/p.html" err.txt || fail "unwritable page: exit $rc, $(cat err.txt)"
echo ok
