#!/usr/bin/env bash
# report --html on a call-graph recording (record -g): the page's table has the text's
# columns (children share and interval, self share and interval, samples, binary, function)
# and its rows in the text's order, with the same numbers; its chart draws the children
# shares the rows are sorted by, each bar reading back through the axis as the --csv
# table's interval (tests/tools/svg_check.py). In headless Chromium the page gives no console
# message and nothing overflows its width, at 1280 and at 700 pixels; the screenshot is kept in
# the build tree (test-artefacts/report_html_children/).
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/browser.sh"
cd "$tmp"

"$PMUSCOPE" record -g -e cpu-clock -c 100000 -o cg.data -- "$PMS_WORKLOADS/calltree" >/dev/null 2>&1
"$PMUSCOPE" report -i cg.data --html page.html > text.txt
"$PMUSCOPE" report -i cg.data --csv > rows.csv
grep -q '^children ' text.txt || fail "the text has no children column"

python3 - page.html text.txt <<'PY' || fail "the page's table is not the text's"
import html, re, sys
page, text = open(sys.argv[1]).read(), open(sys.argv[2]).read().splitlines()
head = [html.unescape(h) for h in re.findall(r"<th>(.*?)</th>", page)]
want_head = ["children %", "95% interval", "self %", "95% interval", "samples", "binary", "function"]
if head[:7] != want_head:
    sys.exit(f"columns {head}, expected {want_head}")
rows = [[html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", r)] for r in re.findall(r"<tr><td.*?</tr>", page)]
lines = [l for l in text if re.match(r"\s*[0-9.]+%", l)]
if len(rows) != len(lines):
    sys.exit(f"{len(rows)} rows on the page, {len(lines)} in the text")
for r, l in zip(rows, lines):
    f = l.split()
    # text: children% [lo, hi] self% [lo, hi] samples binary function
    want = [f[0].rstrip("%"), f"{f[1]} {f[2]}", f[3].rstrip("%"), f"{f[4]} {f[5]}", f[6], f[7], f[8]]
    if r[:7] != want:
        sys.exit(f"page row {r[:7]}, text row {want}")
print(f"{len(rows)} rows as the text has them")
PY
svg_check --kind report --table rows.csv page.html || fail "the page's chart"
grep -q 'children' <(grep -o '<text class="title"[^<]*' page.html) || fail "the chart does not say it draws children shares"

art=$(artefact_dir report_html_children)
cp page.html "$art/"
browser_shot "$tmp/page.html" "$art/page.png" 1280
page_as_read "$tmp/page.html"
echo "screenshot: $art/page.png"
