#!/usr/bin/env bash
# pmuscope demo end to end: every step runs, and the page, opened in headless Chromium,
# has every plot drawn and makes no network request.
# ctest-labels: serial
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v chromium >/dev/null || fail "chromium is not installed (scripts/install-deps.sh installs it)"
cd "$tmp"

grep -q -- '--steps' <("$PMUSCOPE" demo --help) || fail "demo --help"
rc=0; "$PMUSCOPE" demo --steps nosuch >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "an unknown step must be a usage error (exit 2), got $rc"

steps="hotspot record report olr olr-opt phase cpistack cpistack-lm estimate"
only=()
if grep -q '^PMS_SANITIZE:BOOL=ON' "$PMS_BUILD_DIR/CMakeCache.txt"; then
    # valgrind cannot run the sanitizer-built workloads: the hotspot sweep is left out here
    steps=${steps/hotspot /}
    only=(--steps "${steps// /,}")
fi
rc=0
"$PMUSCOPE" demo -o demo --workloads "$PMS_WORKLOADS" --fixtures "$PMS_FIXTURES" "${only[@]}" > out.txt 2> err.txt || rc=$?
cat err.txt >&2
[ "$rc" -eq 0 ] || { cat out.txt; fail "demo exited $rc"; }
page=$tmp/demo/index.html
grep -q "^page: demo/index.html" out.txt || fail "the summary does not say where the page is"
for step in $steps; do
    grep -Eq "\] $step +done in" err.txt || fail "no progress line for step $step"
done
# the summary shows the results, read back from the files the steps wrote
grep -q "phase_c_chase" out.txt || fail "summary: no hotspot of the phases workload"
if [[ " $steps " == *" hotspot "* ]]; then grep -Eq "^ +262144 " out.txt || fail "summary: no hotspot sweep row"; fi
grep -Eq "automotive_qsort1 +52 " out.txt || fail "summary: no CPI stack row"
grep -Eq "^ +LP +[0-9]+ " out.txt || fail "summary: no LP row of TABLE X"
grep -Eq "adjusted Rand index [0-9.]+ against the known schedule" out.txt || fail "summary: no phase summary"
if grep -q "no hardware PMU" err.txt; then
    grep -q "This machine has no hardware PMU" "$page" || fail "the page does not say that there is no PMU"
fi

# Methods are named by what they do, and each method's first section cites its paper, as
# its --help does (tests/integration/help_methods.sh checks the citations).
! grep -Ein 'seed 0[0-9]{2}' "$page" out.txt || fail "the demo names a method by a seed number"
for step in $steps; do
    case $step in hotspot|olr|phase|cpistack|estimate) ;; *) continue ;; esac
    title=$("$PMUSCOPE" "$step" --help | sed -n '/^Paper: /,$p' | tr '\n' ' ' | tr -s ' ' | sed 's/^[^"]*"\([^"]*\)".*/\1/')
    [ -n "$title" ] && grep -qF "Paper: " "$page" && grep -qF "$title" "$page" || fail "the page does not cite $step's paper"
done

# Self-contained: nothing that could be fetched, and the CSP forbids it anyway.
if grep -Eio '(src|href|xlink:href)=|url\(|@import|<script|<link|<iframe|<object|<embed' "$page" | head -3 | grep .; then
    fail "the page references something outside itself"
fi
grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$page" || fail "no CSP"

# Every SVG the steps wrote is on the page, with all of its charts.
nsvg=$(ls demo/*.svg | wc -l)
want_svg=0
for step in $steps; do case $step in hotspot|olr|olr-opt|phase|cpistack|estimate) want_svg=$((want_svg + 1)) ;; esac; done
[ "$nsvg" -eq "$want_svg" ] || fail "expected $want_svg SVG files (one per step that draws), found $nsvg"
want_charts=$(cat demo/*.svg | grep -o '<g class="chart"' | wc -l)

chrome=(chromium --headless --no-sandbox --disable-gpu --disable-background-networking
        --disable-component-update --disable-sync --no-first-run --disable-default-apps
        --disable-extensions --hide-scrollbars)
# The DOM as the browser built it: count the charts and check each draws its data.
timeout 120 "${chrome[@]}" --user-data-dir="$tmp/p1" --dump-dom "file://$page" > dom.html 2>/dev/null
[ "$(grep -o '<svg' dom.html | wc -l)" -eq "$nsvg" ] || fail "the browser sees $(grep -o '<svg' dom.html | wc -l) svg elements, the steps wrote $nsvg"
read -r charts empty < <(perl -0777 -ne '
    my @charts = split /<g class="chart"[^>]*>/; shift @charts;
    my $empty = 0;
    for my $c (@charts) {
        my $drawn = 0;
        while ($c =~ /<polyline[^>]*points="([^"]*)"/g) { $drawn = 1 if (split " ", $1) >= 2; }
        while ($c =~ /<g class="series"[^>]*>(.*?)<\/g>/gs) {
            my $g = $1;
            $drawn = 1 if $g =~ /<circle/;
            while ($g =~ /<rect[^>]*width="([0-9.]+)"[^>]*height="([0-9.]+)"/g) { $drawn = 1 if $1 > 0 && $2 > 0; }
        }
        $empty++ unless $drawn;
    }
    print scalar(@charts), " $empty\n";' dom.html)
[ "$charts" -eq "$want_charts" ] || fail "the browser's DOM has $charts charts, the SVG files $want_charts"
[ "$empty" -eq 0 ] || fail "$empty of $charts charts draw no data"
echo "browser DOM: $nsvg figures, $charts charts, all with data"

# Rendered: the page's screenshot (kept in the build tree) is far from a blank page's.
. "$PMS_SOURCE_DIR/tests/lib/browser.sh"
art=$(artefact_dir demo_page)
echo '<!DOCTYPE html><html><body></body></html>' > blank.html
browser_shot "$page" "$art/page.png" 1280
browser_shot "$tmp/blank.html" "$tmp/blank.png" 1280
[ "$(stat -c %s "$art/page.png")" -gt $((10 * $(stat -c %s blank.png))) ] || fail "the rendered page looks blank"
echo "screenshot: $art/page.png"

# As a reader sees it (lib/browser.sh), and every chart true to the tables the steps wrote
# (tests/tools/svg_check.py).
page_as_read "$page"
if [ -f demo/hotspot.svg ]; then svg_check --kind sweep --table demo/hotspot.csv demo/hotspot.svg || fail "sweep chart"; fi
svg_check --kind cpistack --table demo/cpistack.csv --input "$PMS_FIXTURES/armpm/cbench-excerpt.tsv" --skip 2 demo/cpistack.svg ||
    fail "cpistack chart"
svg_check --kind phase --table demo/phase.csv demo/phase.svg || fail "phase chart"
svg_check demo/olr-wm.svg demo/olr-opt.svg demo/estimate.svg || fail "olr and estimate charts"

# No network request: the browser's net log lists every request a page starts (its
# network isolation key is file://). A control page with external references, and no
# CSP, shows that the check sees them.
netlog() { # PAGE LOG: the non-file URLs that the page at PAGE asked for
    timeout 120 "${chrome[@]}" --user-data-dir="$(mktemp -d -p "$tmp")" --log-net-log="$2" \
        --enable-logging=stderr --v=0 --dump-dom "file://$1" > /dev/null 2> "$2.console"
    jq -r '[.events[] | select((.params.network_isolation_key? // "") | startswith("file://"))
            | .params.url | select(startswith("file:") | not)] | unique | .[]' "$2"
}
mkdir control
echo '<!DOCTYPE html><html><body><img src="http://192.0.2.1/x.png"><link rel="stylesheet" href="https://example.invalid/a.css"></body></html>' > control/index.html
seen=$(netlog "$tmp/control/index.html" control.json)
echo "$seen" | grep -q "192.0.2.1/x.png" || fail "the net log check does not see the control page's image request: $seen"
echo "$seen" | grep -q "example.invalid/a.css" || fail "the net log check does not see the control page's stylesheet request"
seen=$(netlog "$page" page.json)
[ -z "$seen" ] || fail "the page made network requests: $seen"
if grep -i "Content Security Policy" page.json.console; then fail "the page tried to load something the CSP blocked"; fi
echo "network: no request from the page (the control page's 2 were seen)"
