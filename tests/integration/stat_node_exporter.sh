#!/bin/bash
# stat --serve -a beside node_exporter's perf collector (Debian's prometheus-node-exporter,
# --collector.perf: the same software events, per CPU, through perf_event_open too), scraped
# before and after a workload that takes page faults by the thousand: the two exporters' page
# faults grow by the same count within what the machine adds between their scrapes (2% of the
# growth, and 500 faults). Where the kernel refuses system-wide counting (perf_event_paranoid
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
# pmuscope serves the counts of its last 20 ms interval, node_exporter reads at the scrape:
# both are read back to back (pmuscope first), so each pair of counts is apart by what the
# machine adds in about one interval, before and after the workload alike.
pair() {
    python3 - "$url" "$node" <<'PY'
import sys, urllib.request
def total(url, key, prefix):
    body = urllib.request.urlopen(url, timeout=20).read().decode()
    vals = [float(l.split()[-1]) for l in body.splitlines() if (l.split(" ")[0] == key) or (prefix and l.startswith(prefix))]
    return int(sum(vals))
a = total(sys.argv[1], 'pmuscope_events_total{event="page-faults"}', None)
n = total(sys.argv[2], None, "node_perf_page_faults_total{")
print(a, n)
PY
}
read -r a0 n0 < <(pair)
# 40,000 pages touched: a page fault each, in a process nobody here wrote.
python3 -c 'b = bytearray(40000 * 4096)
for i in range(0, len(b), 4096): b[i] = 1'
# One interval published after the workload ended (its enabled time moved), then the pair.
enabled() { curl -sS "$url" | awk '$1 == "pmuscope_event_enabled_seconds_total{event=\"page-faults\"}" { print $2 }'; }
e=$(enabled); while [ "$(enabled)" = "$e" ]; do kill -0 $ours || fail "stat --serve ended"; sleep 0.01; done
read -r a1 n1 < <(pair)
da=$((a1 - a0)) dn=$((n1 - n0))
echo "page faults over the workload: pmuscope $da ($a0 -> $a1), node_exporter $dn ($n0 -> $n1)"
[ "$da" -ge 40000 ] && [ "$dn" -ge 40000 ] || fail "fewer faults than the 40000 pages touched: pmuscope $da, node_exporter $dn"
awk -v a="$da" -v b="$dn" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.02 * b + 500) }' ||
    fail "pmuscope counted $da page faults, node_exporter $dn"
