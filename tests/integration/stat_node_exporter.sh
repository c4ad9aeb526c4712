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

ev=page-faults,context-switches,cpu-migrations
"$PMUSCOPE" stat --serve 0 -a -I 100 -e $ev 2> "$tmp/pmuscope.err" &
pids+=($!)
ours=$!
until url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/metrics' "$tmp/pmuscope.err"); do
    if ! kill -0 $ours 2>/dev/null; then
        if grep -qi 'permission denied\|perf_event_paranoid' "$tmp/pmuscope.err"; then
            echo "SKIP: the kernel refuses system-wide events here: $(cat "$tmp/pmuscope.err")"; exit 77
        fi
        fail "stat --serve -a ended"
    fi
    sleep 0.05
done
nport=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
prometheus-node-exporter --web.listen-address="127.0.0.1:$nport" --collector.disable-defaults --collector.perf \
    2> "$tmp/node_exporter.err" &
pids+=($!)
node="http://127.0.0.1:$nport/metrics"

# The sum over CPUs of a counter in a scrape.
ours_total() { curl -sS "$url" | awk -v k="pmuscope_events_total{event=\"$1\"}" '$1 == k { print $2 }'; }
node_total() { curl -sS "$node" | awk -v k="node_perf_$1_total" 'index($1, k "{") == 1 { s += $2; n++ } END { if (n) printf "%.0f\n", s }'; }
until [ -n "$(node_total page_faults 2>/dev/null)" ] && [ -n "$(ours_total page-faults 2>/dev/null)" ]; do
    kill -0 $ours || fail "stat --serve ended"
    sleep 0.1
done
# pmuscope serves the counts of its last interval: fresh() waits for the next one to be
# published (its enabled time moves), so that what follows includes all before the call.
enabled() { curl -sS "$url" | awk '$1 == "pmuscope_event_enabled_seconds_total{event=\"page-faults\"}" { print $2 }'; }
fresh() { local e; e=$(enabled); while [ "$(enabled)" = "$e" ]; do kill -0 $ours || fail "ended"; sleep 0.02; done; }
fresh
a0=$(ours_total page-faults); n0=$(node_total page_faults)
# 40,000 pages touched: a page fault each, in a process nobody here wrote.
python3 -c 'b = bytearray(40000 * 4096)
for i in range(0, len(b), 4096): b[i] = 1'
fresh
a1=$(ours_total page-faults); n1=$(node_total page_faults)
da=$((a1 - a0)) dn=$((n1 - n0))
echo "page faults over the workload: pmuscope $da ($a0 -> $a1), node_exporter $dn ($n0 -> $n1)"
[ "$da" -ge 40000 ] && [ "$dn" -ge 40000 ] || fail "fewer faults than pages touched: pmuscope $da, node_exporter $dn"
awk -v a="$da" -v b="$dn" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.02 * b + 500) }' ||
    fail "pmuscope counted $da page faults, node_exporter $dn"
