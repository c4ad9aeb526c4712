# A page looked at in headless Chromium as a reader would: a screenshot kept as a test
# artefact, the console (no message may appear: the pages hold no script, so any message is
# an error: a blocked fetch, a parse failure), and what the laid-out page measures (no
# element past the page's width; the boxes of the charts' labels, for svg_check.py --boxes).
# Needs $tmp (a scratch directory) and fail().
command -v chromium >/dev/null || fail "chromium is not installed (scripts/install-deps.sh installs it)"
BROWSER=(chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
         --disable-sync --no-first-run --disable-default-apps --disable-extensions --hide-scrollbars)
svg_check() { python3 "$PMS_SOURCE_DIR/tests/tools/svg_check.py" "$@"; }

# The test's artefacts: $PMS_BUILD_DIR/test-artefacts/NAME (kept after the test).
artefact_dir() {
    local d="$PMS_BUILD_DIR/test-artefacts/$1"
    mkdir -p "$d" && echo "$d"
}

# browser_shot PAGE PNG WIDTH: a screenshot of the page's first 6000 pixels at that width.
browser_shot() {
    timeout 120 "${BROWSER[@]}" --user-data-dir="$(mktemp -d -p "$tmp")" --window-size="$3,6000" \
        --screenshot="$2" "file://$1" >/dev/null 2>&1
    [ -s "$2" ] || fail "no screenshot of $1"
}

# browser_console PAGE: the console messages the page gives, one a line (none expected).
browser_console() {
    timeout 120 "${BROWSER[@]}" --user-data-dir="$(mktemp -d -p "$tmp")" --enable-logging=stderr --v=0 \
        --dump-dom "file://$1" 2>&1 >/dev/null | grep -F ':CONSOLE' || true
}

# browser_measure PAGE WIDTH OUT.json: a copy of the page with its CSP taken out and
# tests/tools/page_measure.js put in, laid out at that width; its measurements to OUT.json.
browser_measure() {
    local copy="$tmp/measure-$RANDOM.html"
    python3 - "$1" "$PMS_SOURCE_DIR/tests/tools/page_measure.js" "$copy" <<'EOF'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
page = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page, count=1)
script = "<script>" + open(sys.argv[2]).read() + "</script>"
open(sys.argv[3], "w", encoding="utf-8").write(page.replace("</body>", script + "</body>", 1))
EOF
    timeout 120 "${BROWSER[@]}" --user-data-dir="$(mktemp -d -p "$tmp")" --window-size="$2,3000" \
        --virtual-time-budget=5000 --dump-dom "file://$copy" 2>/dev/null | python3 -c '
import html, json, re, sys
m = re.findall(r"<pre id=\"pms-measure\">(\{[^<]*)</pre>", sys.stdin.read())  # JSON: not the script naming it
if not m:
    sys.exit("no measurement in the page (did the script run?)")
json.dump(json.loads(html.unescape(m[-1])), open(sys.argv[1], "w"))' "$3" || fail "cannot measure $1"
}

# page_fits MEASURE.json: no horizontal overflow of the page.
page_fits() {
    python3 - "$1" <<'EOF' || fail "$1: the page overflows its width"
import json, sys
m = json.load(open(sys.argv[1]))
bad = m["scroll_width"] > m["client_width"] or m["overflowing"]
if bad:
    print(f"scroll width {m['scroll_width']} for a client width {m['client_width']}; past the edge:",
          m["overflowing"][:10])
sys.exit(1 if bad else 0)
EOF
}

# page_as_read PAGE: the page as a reader sees it: no console message (a control page's
# blocked image shows that the check sees one), nothing past the page's width at 1280 and 700
# pixels, and its charts pass svg_check.py with the label boxes the browser laid out.
page_as_read() {
    local ctl="$tmp/console-control.html" msgs w
    echo '<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src '"'none'"'"></head><body><img src="http://192.0.2.1/x.png"></body></html>' > "$ctl"
    [ -n "$(browser_console "$ctl")" ] || fail "the console check does not see the control page's message"
    msgs=$(browser_console "$1")
    [ -z "$msgs" ] || fail "console: $msgs"
    for w in 1280 700; do
        browser_measure "$1" $w "$tmp/measure$w.json"
        page_fits "$tmp/measure$w.json"
    done
    svg_boxes "$tmp/measure1280.json" "$tmp/boxes.json"
    svg_check --quiet --boxes "$tmp/boxes.json" "$1" || fail "$1: its charts as the browser lays them out"
}

# svg_boxes MEASURE.json OUT.json: the label boxes alone, for svg_check.py --boxes.
svg_boxes() {
    python3 -c 'import json, sys; json.dump(json.load(open(sys.argv[1]))["boxes"], open(sys.argv[2], "w"))' "$1" "$2"
}
