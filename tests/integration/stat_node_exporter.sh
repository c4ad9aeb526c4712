#!/bin/bash
# stat --serve -a beside node_exporter's perf collector (Debian's prometheus-node-exporter,
# --collector.perf: the same software events, per CPU, through perf_event_open too), scraped
# before and after a workload that takes page faults by the thousand: the two exporters' page
# faults grow by the same count: pmuscope's growth lies between node_exporter's smallest and
# largest over the same span (below). Where the kernel refuses system-wide counting (perf_event_paranoid
# without the privilege), the test says so and is skipped (ctest's SKIP); nowhere else.
# ctest-labels: serial;no-sanitize
set -euo pipefail
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$tmp"/*.err; do [ -f "$f" ] && sed "s|^|  $(basename "$f"): |" "$f" | tail -5; done; exit 1; }
command -v prometheus-node-exporter > /dev/null || fail "prometheus-node-exporter is needed: make test installs it"

. "$PMS_SOURCE_DIR/tests/lib/serve.sh"
if ! "$PMUSCOPE" stat -a -e page-faults -o /dev/null -- true 2> "$tmp/probe.err"; then
    grep -qi 'permission denied\|perf_event_paranoid' "$tmp/probe.err" || fail "stat -a: $(cat "$tmp/probe.err")"
    echo "SKIP: the kernel refuses system-wide events here: $(cat "$tmp/probe.err")"; exit 77
fi
serve_start "$tmp/pmuscope.err" -a -I 20 -e page-faults,context-switches,cpu-migrations
ours=$exporter
nport=$(free_port)
prometheus-node-exporter --web.listen-address="127.0.0.1:$nport" --collector.disable-defaults --collector.perf \
    2> "$tmp/node_exporter.err" &
pids+=($!)
node="http://127.0.0.1:$nport/metrics"

until curl -sf "$node" 2>/dev/null | grep -q '^node_perf_page_faults_total{' && curl -sf "$url" > /dev/null 2>&1; do
    kill -0 $ours || fail "stat --serve ended"
    sleep 0.1
done
# pmuscope serves the counts of its last 20 ms interval, node_exporter reads at the scrape.
# Each pmuscope count is bracketed by two of node_exporter's: read node_exporter, wait until
# pmuscope has published two new intervals (the second was read after the first was served,
# so after that read), read pmuscope, read node_exporter again. pmuscope's growth over the
# workload must then lie between node_exporter's smallest and largest growth over the same
# span, whatever else the machine does meanwhile (a test beside it once added 7,000 faults
# between two reads 20 ms apart).
# One process does it all, so that the bracket holds few faults of its own.
bracket() { # prints node_exporter before, pmuscope, node_exporter after
    python3 - "$url" "$node" <<'PY'
import sys, time, urllib.request
ours, node = sys.argv[1], sys.argv[2]
def lines(url):
    return urllib.request.urlopen(url, timeout=20).read().decode().splitlines()
def total(url, prefix):
    return int(sum(float(l.split()[-1]) for l in lines(url) if l.startswith(prefix)))
def enabled():
    return [l for l in lines(ours) if l.startswith('pmuscope_event_enabled_seconds_total{event="page-faults"}')]
before = total(node, "node_perf_page_faults_total{")
for _ in range(2):
    e = enabled()
    while enabled() == e:
        time.sleep(0.005)
count = total(ours, 'pmuscope_events_total{event="page-faults"} ')
print(before, count, total(node, "node_perf_page_faults_total{"))
PY
}
read -r nb0 a0 na0 < <(bracket)
# 40,000 pages touched: a page fault each, in a process nobody here wrote.
python3 -c 'b = bytearray(40000 * 4096)
for i in range(0, len(b), 4096): b[i] = 1'
read -r nb1 a1 na1 < <(bracket)
da=$((a1 - a0)) lo=$((nb1 - na0)) hi=$((na1 - nb0))
echo "page faults over the workload: pmuscope $da ($a0 -> $a1), node_exporter between $lo and $hi"
[ "$da" -ge 40000 ] && [ "$hi" -ge 40000 ] || fail "fewer faults than the 40000 pages touched: pmuscope $da, node_exporter $hi"
[ "$da" -ge "$lo" ] && [ "$da" -le "$hi" ] || fail "pmuscope counted $da page faults, node_exporter between $lo and $hi"
