#!/usr/bin/env bash
# pmuscope diff --html: the page's two-sided bar chart read back as a reader would. The SVG is
# parsed (tests/tools/svg_check.py's checks of every chart, then these); the y axis is read
# from its tick labels; every bar (one per changed row, in the CSV's order, its label the
# row's name) must span, within a pixel, from 0 through its interval's near end (0 where the
# interval holds 0) and its change to its far end, as the CSV has them (a rise above 0, a
# fall below). Chromium renders the page (no console error, the chart's bars in its DOM). For
# counts, the bars are the changes in percent.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v chromium >/dev/null || fail "chromium is not installed (scripts/install-deps.sh installs it)"
cd "$tmp"
rec() { out=$1; shift; "$PMUSCOPE" record -e cpu-clock:u -c 20000 -o "$out" -- "$PMS_WORKLOADS/hotspots" "$@" >/dev/null 2>&1; }
rec a.data
rec s5.data --shift 5
"$PMUSCOPE" diff a.data s5.data --html page.html --csv > rows.csv
"$PMUSCOPE" stat -r 8 --json -o one.json -e task-clock,page-faults -- "$PMS_WORKLOADS/sizes" 1 2>/dev/null
"$PMUSCOPE" stat -r 8 --json -o two.json -e task-clock,page-faults -- "$PMS_WORKLOADS/sizes" 2 2>/dev/null
"$PMUSCOPE" diff one.json two.json --html counts.html --csv > counts.csv

check() { # PAGE CSV: the chart's bars against the CSV's changed rows
python3 "$PMS_SOURCE_DIR/tests/tools/svg_check.py" "$1" || return 1
python3 - "$1" "$2" <<'PY'
import csv, re, sys
import xml.etree.ElementTree as ET
page, table, counts = open(sys.argv[1]).read(), list(csv.DictReader(open(sys.argv[2]))), "counts" in sys.argv[2]
svgs = re.findall(r"<svg\b.*?</svg>", page, re.S)
assert len(svgs) == 1, f"{len(svgs)} svg elements"
ns = "{http://www.w3.org/2000/svg}"
root = ET.fromstring(svgs[0])
cls = lambda e: (e.get("class") or "").split()
# the y axis as a reader reads it: each tick's line and the number its label says
yaxis = [g for g in root.iter(ns + "g") if "axis" in cls(g) and g.get("data-axis") == "y"][0]
ticks = []
for t in (g for g in yaxis.iter(ns + "g") if "tick" in cls(g)):
    ticks.append((float(t.find(ns + "line").get("y1")), float(t.find(ns + "text").text)))
n = len(ticks)
assert n >= 3, ticks
my, mv = sum(y for y, _ in ticks) / n, sum(v for _, v in ticks) / n
per_px = sum((y - my) * (v - mv) for y, v in ticks) / sum((y - my) ** 2 for y, _ in ticks)
assert per_px < 0, "values must grow upwards"
for y, v in ticks:
    assert abs(mv + (y - my) * per_px - v) <= 0.1 * abs(per_px), f"ticks not evenly spaced at {v}"
value = lambda y: mv + (y - my) * per_px
px = abs(per_px)
# the bars: three series (near end, change, far end), one part per changed row in each
series = [g for g in root.iter(ns + "g") if "series" in cls(g) and g.get("data-kind") == "bar"]
assert len(series) == 3, f"{len(series)} bar series"
changed = [r for r in table if r["verdict"] != "none"]
assert changed, "no changed rows to chart"
for k, row in enumerate(changed):
    if counts:
        change, lo, hi = (100 * (float(row[c]) - 1) for c in ("ratio", "ci_low", "ci_high"))
        name = row["event"]
    else:
        change, lo, hi = (100 * float(row[c]) for c in ("delta", "ci_low", "ci_high"))
        name = row["function"]
    near, far = (max(lo, 0), hi) if change >= 0 else (min(hi, 0), lo)
    want = [(0, near), (near, change), (change, far)]
    parts = [[r for r in s.iter(ns + "rect") if r.get("data-cat") == str(k)] for s in series]
    assert all(len(p) == 1 for p in parts), f"{name}: parts {[len(p) for p in parts]}"
    for (seg,), (a, b) in zip(parts, want):
        top, h = float(seg.get("y")), float(seg.get("height"))
        got = sorted([value(top), value(top + h)])
        assert abs(got[0] - min(a, b)) <= px and abs(got[1] - max(a, b)) <= px, \
            f"{name}: segment {got} for {sorted([a, b])} (one pixel is {px:.4f})"
    label = name if len(name) <= 16 else name[:14] + ".."
    assert parts[1][0].find(ns + "title").text.startswith(label + ", "), f"bar {k} is not {label}"
    # a rise lies above 0, a fall below
    zero_y = my + (0 - mv) / per_px
    top = min(float(p[0].get("y")) for p in parts)
    bottom = max(float(p[0].get("y")) + float(p[0].get("height")) for p in parts)
    assert (bottom <= zero_y + 1) if change > 0 else (top >= zero_y - 1), f"{name} on the wrong side of 0"
print(f"{sys.argv[1]}: {len(changed)} bars, each within a pixel ({px:.4f}) of its numbers")
PY
}
check page.html rows.csv || fail "the profile chart does not draw its numbers"
grep -q ',hot_a,.*,up$' rows.csv && grep -q ',hot_b,.*,down$' rows.csv || fail "hot_a up and hot_b down: $(cat rows.csv)"
check counts.html counts.csv || fail "the counts chart does not draw its numbers"
# ... and a number the bar does not show is caught: hot_a's far end moved by half a point
awk -F, -v OFS=, '$3 == "hot_a" { $16 = $16 + 0.005 } 1' rows.csv > moved.csv
if check page.html moved.csv > /dev/null 2>&1; then fail "a bar that ends half a point short passes"; fi

# the page stands alone, and the browser builds it with the same bars
if grep -Eio '(src|href)=|url\(|<script|<link' page.html | grep .; then fail "the page references something"; fi
chrome=(chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
        --disable-sync --no-first-run --disable-default-apps --disable-extensions --hide-scrollbars)
timeout 120 "${chrome[@]}" --user-data-dir="$tmp/p1" --enable-logging=stderr --v=0 --dump-dom "file://$tmp/page.html" \
    > dom.html 2> console.txt || fail "chromium could not load the page"
if grep -i 'CONSOLE' console.txt | grep -iv 'DevTools' | grep .; then fail "console messages"; fi
bars=$(grep -o ', estimated change: ' page.html | wc -l)
[ "$bars" -gt 0 ] && [ "$(grep -o ', estimated change: ' dom.html | wc -l)" -eq "$bars" ] ||
    fail "the browser sees other bars than the page's $bars"
timeout 120 "${chrome[@]}" --user-data-dir="$tmp/p2" --window-size=1000,900 --screenshot="$tmp/page.png" \
    "file://$tmp/page.html" > /dev/null 2>&1
[ -s page.png ] || fail "no screenshot"

# no change: the page says so instead of an empty chart. The same run twice, judged at FDR
# 0.001 as diff_profiles.sh judges it: at the default 0.05 sampling noise alone flags a row in
# up to one pair of runs in twenty (Benjamini-Hochberg's bound), and a small row also moves
# for real between two runs on a busy machine (14 samples against 0 of 19,000 seen, q = 0.023).
rec b.data
"$PMUSCOPE" diff a.data b.data --fdr 0.001 --html same.html > /dev/null
grep -q 'No row changed significantly' same.html || fail "an unchanged diff's page"
echo ok
