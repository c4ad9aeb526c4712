#!/bin/bash
# A real Prometheus server (Debian's prometheus 2.42) scrapes stat --serve every second on
# loopback and stores what a workload counted: asked through its HTTP API,
#  - the page-faults series holds the exporter's final count exactly (max_over_time), and
#    increase() over the run equals what `pmuscope stat -e page-faults` counts for the same
#    command, within the scrape granularity: the count at the first scrape (before the
#    workload), what Prometheus's extrapolation adds (at most 1.1 average scrape intervals'
#    worth of the growth at each end of the series), and 2% for run-to-run variation;
#  - task-clock's increase() equals the growth of the stored series within that extrapolation,
#    and rate() is increase() over the range.
# The workload waits on a FIFO until Prometheus has scraped the exporter once, so that the
# series starts before the counts grow, on any machine however busy.
# ctest-labels: no-sanitize
set -euo pipefail
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$tmp"/*.err; do [ -f "$f" ] && sed "s|^|  $(basename "$f"): |" "$f" | tail -20; done; exit 1; }
command -v prometheus > /dev/null || fail "prometheus (Debian's prometheus) is needed: make test installs it"

. "$PMS_SOURCE_DIR/tests/lib/serve.sh"
mkfifo "$tmp/gate"
work=(sh -c 'read x < "$1"; shift; exec "$@"' sh "$tmp/gate" "$PMS_WORKLOADS/phases" --repeat 3)
serve_start "$tmp/exporter.err" -I 200 -e task-clock,page-faults -- "${work[@]}"
target=127.0.0.1:$port

# Prometheus on a free loopback port, scraping the exporter every second.
pport=$(free_port)
cat > "$tmp/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: pmuscope
    static_configs:
      - targets: ['$target']
EOF
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tsdb" --web.listen-address="127.0.0.1:$pport" \
    --log.level=warn 2> "$tmp/prometheus.err" &
pids+=($!)
api="http://127.0.0.1:$pport/api/v1"
# The value of an instant query's first result ("" while there is none), at time $at when set.
at=""
query() {
    curl -sS --max-time 10 --data-urlencode "query=$1" ${at:+--data-urlencode "time=$at"} "$api/query" |
        python3 -c 'import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if r else "")'
}
wait_for() { # QUERY CONDITION (awk on $1) WHAT
    local v
    until v=$(query "$1" 2>/dev/null) && [ -n "$v" ] && awk -v x="$v" "BEGIN { exit !($2) }"; do
        kill -0 $exporter 2>/dev/null || fail "the exporter ended while waiting for $3"
        sleep 0.2
    done
    echo "$v"
}
pf='pmuscope_events_total{event="page-faults"}'
tc='pmuscope_events_total{event="task-clock"}'
first=$(wait_for "$pf" "x >= 0" "Prometheus's first scrape")
echo go > "$tmp/gate"
until grep -q 'the target ended' "$tmp/exporter.err"; do
    kill -0 $exporter 2>/dev/null || fail "the exporter ended with its target"
    sleep 0.1
done
final=$(curl -sS "http://$target/metrics" | awk -v k="$pf" '$1 == k { print $2 }')
final_tc=$(curl -sS "http://$target/metrics" | awk -v k="$tc" '$1 == k { print $2 }')
# Two scrapes of the final counts stored (the target's end, then the flat line after it).
wait_for "count_over_time((pmuscope_target_running == 0)[1m:1s])" "x >= 2" "two scrapes after the end" > /dev/null
at=$(date +%s.%N) # every query below at the same instant, over the same range
stored=$(query "max_over_time(${pf}[10m])")
samples=$(query "count_over_time(${pf}[10m])")
base=$(query "min_over_time(${pf}[10m])")
increase=$(query "increase(${pf}[10m])")
tc_inc=$(query "increase(${tc}[10m])")
tc_min=$(query "min_over_time(${tc}[10m])")
tc_max=$(query "max_over_time(${tc}[10m])")
tc_rate=$(query "rate(${tc}[10m])")
up=$(query 'up{job="pmuscope"}')
kill -INT $exporter
wait $exporter || fail "exporter exit status $?"

# The same command counted by stat alone (its FIFO fed at once).
mkfifo "$tmp/gate2"
(echo go > "$tmp/gate2") &
"$PMUSCOPE" stat -x, -e page-faults -- sh -c 'read x < "$1"; shift; exec "$@"' sh "$tmp/gate2" \
    "$PMS_WORKLOADS/phases" --repeat 3 2> "$tmp/stat.csv" > /dev/null
alone=$(awk -F, '$3 == "page-faults" { print $1 }' "$tmp/stat.csv")

echo "page-faults: first scrape $first, stored max $stored (exporter's final $final), increase() $increase," \
     "stat alone $alone; task-clock: stored $tc_min..$tc_max ns (exporter's final $final_tc), increase() $tc_inc," \
     "rate() $tc_rate; $samples samples; up $up"
[ "$up" = 1 ] || fail "Prometheus's up for the exporter is $up"
[ "$stored" = "$final" ] || fail "Prometheus stored $stored page-faults at most, the exporter served $final"
# What extrapolation may add: 2.2 average scrape intervals' worth of the series' growth.
extra() { awk -v g="$1" -v n="$samples" 'BEGIN { print g * 2.2 / (n - 1) }'; }
awk -v inc="$increase" -v alone="$alone" -v base="$base" -v x="$(extra $((${stored%.*} - ${base%.*})))" \
    'BEGIN { d = inc - alone; if (d < 0) d = -d; exit !(d <= base + x + 0.02 * alone) }' ||
    fail "increase() $increase page-faults, stat counts $alone (base $base, $samples samples)"
[ "$tc_max" = "$final_tc" ] || fail "Prometheus stored $tc_max ns of task-clock at most, the exporter served $final_tc"
# increase() = growth of the stored samples, extrapolated toward the range's ends by at most
# one scrape interval's share of it; rate() is increase() over the range's 600 seconds.
awk -v inc="$tc_inc" -v lo="$tc_min" -v hi="$tc_max" -v rate="$tc_rate" -v n="$samples" \
    'BEGIN { g = hi - lo; exit !(inc >= g * 0.999 && inc <= g * (1 + 2.2 / (n - 1)) + 1 &&
                                 (rate * 600 - inc) ^ 2 <= (0.001 * inc) ^ 2) }' ||
    fail "task-clock: increase() $tc_inc for a growth of $tc_min..$tc_max, rate() $tc_rate"
