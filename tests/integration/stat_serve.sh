#!/bin/bash
# stat --serve as a Prometheus scrape target, checked by what nobody here wrote: promtool
# (Debian's prometheus) lints the text format it serves, and the Prometheus project's Python
# client parses the OpenMetrics it serves to a scraper that asks for it (its parser is strict:
# TYPE, UNIT and HELP per family, _created, # EOF). The final counts it serves after the
# command ends are the counts stat prints at the end, exactly. Bad and hostile clients (another
# path or method, a malformed request, a client that sends half a request and waits, more
# connections than it takes) get a clear HTTP error or are dropped, while counting and serving
# go on. It listens on 127.0.0.1 unless told otherwise. --phases adds the phase monitor's gauges.
set -euo pipefail
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; [ -f "$tmp/err" ] && sed 's/^/  exporter: /' "$tmp/err"; exit 1; }
command -v promtool > /dev/null || fail "promtool (Debian's prometheus) is needed: make test installs it"
# Debian's python3, which has Debian's python3-prometheus-client (a python3 earlier on PATH may not).
py=/usr/bin/python3
$py -c 'import prometheus_client.openmetrics.parser' || fail "python3-prometheus-client is needed: make test installs it"

# The exporter on a free port: its URL from its first line, once it serves.
. "$PMS_SOURCE_DIR/tests/lib/serve.sh"
mkfifo "$tmp/gate"
serve_start "$tmp/err" -I 100 -e task-clock,page-faults,context-switches \
    -- sh -c 'read x < "$1"; exec "$2" --repeat 4' sh "$tmp/gate" "$PMS_WORKLOADS/phases"
scrape() { curl -sS --max-time 20 "$@" "$url"; }

# 127.0.0.1 only: /proc/net/tcp lists the listening socket (state 0A) at 0100007F:PORT.
hexport=$(printf '%04X' "$port")
awk -v p=":$hexport" '$2 ~ p"$" && $4 == "0A" { print $2 }' /proc/net/tcp | grep -qx "0100007F:$hexport" ||
    fail "not listening on 127.0.0.1:$port: $(awk '$4 == "0A"' /proc/net/tcp)"

# Before the first interval ends: 503 with a message, then the counts (the command waits on the gate).
until code=$(curl -s -o "$tmp/body" -w '%{http_code}' "$url") && [ "$code" = 200 ]; do
    [ "$code" = 503 ] && grep -q "no counts yet" "$tmp/body" || fail "first scrape: HTTP $code $(cat "$tmp/body")"
    sleep 0.05
done

# A client that sends half a request and waits, and more idle connections than the exporter
# takes: counting and serving go on (task-clock grows between two scrapes meanwhile).
python3 - "$port" > "$tmp/hold.log" 2>&1 <<'PY' &
import socket, sys, time
port = int(sys.argv[1])
held = []
for i in range(48):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        if i == 0:
            s.sendall(b"GET /metr")  # half a request line, never finished
        held.append(s)
    except OSError as e:
        print("connection %d: %s" % (i, e))
print("holding %d connections" % len(held), flush=True)
time.sleep(30)
PY
pids+=($!)
holder=$!
until grep -q holding "$tmp/hold.log"; do kill -0 $holder || fail "holder: $(cat "$tmp/hold.log")"; sleep 0.05; done
echo go > "$tmp/gate"
value() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }
tc='pmuscope_events_total{event="task-clock"}'
kill $holder; wait $holder 2>/dev/null || true  # the exporter takes connections again
scrape -o "$tmp/a.txt" || fail "scrape after the idle connections"
a=$(value "$tmp/a.txt" "$tc")

# The text format, as promtool reads it; the OpenMetrics one, as Prometheus's client parses it.
promtool check metrics < "$tmp/a.txt" || fail "promtool check metrics: $(cat "$tmp/a.txt")"
scrape -H 'Accept: application/openmetrics-text; version=1.0.0,text/plain;version=0.0.4;q=0.5' -D "$tmp/h" -o "$tmp/om.txt"
grep -qi '^content-type: application/openmetrics-text; version=1.0.0' "$tmp/h" || fail "OpenMetrics content type: $(cat "$tmp/h")"
$py - "$tmp/om.txt" <<'PY' || fail "OpenMetrics: $(cat "$tmp/om.txt")"
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
fams = {f.name: f for f in text_string_to_metric_families(open(sys.argv[1]).read())}
assert fams["pmuscope_events"].type == "counter", fams["pmuscope_events"].type
assert fams["pmuscope_event_enabled_seconds"].unit == "seconds"
events = {s.labels["event"] for s in fams["pmuscope_events"].samples if s.name == "pmuscope_events_total"}
assert events == {"task-clock", "page-faults", "context-switches"}, events
assert any(s.name == "pmuscope_events_created" for s in fams["pmuscope_events"].samples)
assert fams["pmuscope_target_running"].samples[0].value == 1
PY

# Another path, another method, a malformed request: 404, 405 with Allow, 400.
[ "$(curl -s -o /dev/null -w '%{http_code}' "${url%/metrics}/nope")" = 404 ] || fail "no 404"
curl -s -X POST -d x=1 -D "$tmp/h405" -o /dev/null "$url"
grep -q '^HTTP/1.1 405' "$tmp/h405" && grep -qi '^allow: GET, HEAD' "$tmp/h405" || fail "POST: $(cat "$tmp/h405")"
[ "$(curl -s -o /dev/null -w '%{http_code}' "${url%/metrics}/")" = 200 ] || fail "no index page"
# (libmicrohttpd's answers: 400 for a request line without version or a header line without
# a colon, 505 for an unknown version; a line that is no request at all is closed unanswered.)
python3 - "$port" <<'PY' || fail "malformed requests"
import socket, sys
def ask(req):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
    s.sendall(req)
    reply = s.recv(200)
    s.close()
    return reply.split(b"\r\n")[0]
for req, want in ((b"GET /metrics\r\n\r\n", b"HTTP/1.1 400 Bad Request"),
                  (b"GET /metrics HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n", b"HTTP/1.1 400 Bad Request"),
                  (b"GET /metrics HTTP/9.9\r\n\r\n", b"HTTP/1.1 505 HTTP Version Not Supported"),
                  (b"GARBAGE\r\n\r\n", b"")):
    got = ask(req)
    assert got == want, (req, got)
assert ask(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n") == b"HTTP/1.1 200 OK"
PY

# The command ends; its final counts stay served, equal to what stat prints when stopped.
until scrape -o "$tmp/end.txt" && grep -qx 'pmuscope_target_running 0' "$tmp/end.txt"; do
    kill -0 $exporter 2>/dev/null || fail "the exporter ended with its target"
    sleep 0.1
done
b=$(value "$tmp/end.txt" "$tc")
awk -v a="$a" -v b="$b" 'BEGIN { exit !(b > a && a > 0) }' || fail "task-clock did not grow: $a then $b"
promtool check metrics < "$tmp/end.txt" || fail "promtool on the final counts"
kill -INT $exporter
wait $exporter || fail "exit status $? after SIGINT"
pf=$(value "$tmp/end.txt" 'pmuscope_events_total{event="page-faults"}')
printed=$(awk '$2 == "page-faults" { print $1 }' "$tmp/err")
[ -n "$pf" ] && [ "$pf" = "$printed" ] || fail "served page-faults $pf, printed $printed"
ms=$(awk '$3 == "task-clock" { print $1 }' "$tmp/err")
awk -v ns="$b" -v ms="$ms" 'BEGIN { d = ns / 1e6 - ms; exit !(d < 0.01 && d > -0.01) }' ||
    fail "served task-clock $b ns, printed $ms msec"

# --phases: the phase monitor's phase and metric beside the counts (ns/sample without a PMU).
serve_start "$tmp/phases.err" --phases -I 100 -e task-clock -- "$PMS_WORKLOADS/phases" --repeat 2
until grep -q 'the target ended' "$tmp/phases.err"; do
    kill -0 $exporter 2>/dev/null || fail "the --phases exporter ended"
    sleep 0.1
done
scrape -o "$tmp/ph.txt" || fail "scrape with --phases"
promtool check metrics < "$tmp/ph.txt" || fail "promtool on --phases"
id=$(value "$tmp/ph.txt" pmuscope_phase_id)
metric=$(awk '$1 ~ /^pmuscope_phase_metric\{metric="(CPI|ns\/sample)"\}$/ { print $2 }' "$tmp/ph.txt")
awk -v id="$id" -v m="$metric" 'BEGIN { exit !(id >= 0 && m > 0) }' || fail "--phases: phase $id, metric $metric"
kill -INT $exporter; wait $exporter || fail "--phases exporter: exit status $?"

# Usage errors: a bad address, and options that do not go with --serve.
set +e
"$PMUSCOPE" stat --serve 127.0.0.1:99999 -- true 2> "$tmp/e1"; r1=$?
"$PMUSCOPE" stat --serve 0 -r 3 -- true 2> "$tmp/e2"; r2=$?
"$PMUSCOPE" stat --serve 0 --phases -a 2> "$tmp/e3"; r3=$?
set -e
[ $r1 = 2 ] && grep -q "expected \[ADDR:\]PORT" "$tmp/e1" || fail "bad port: $r1 $(cat "$tmp/e1")"
[ $r2 = 2 ] && grep -q "does not go with -r" "$tmp/e2" || fail "-r: $r2 $(cat "$tmp/e2")"
[ $r3 = 2 ] && grep -q "phases follows a command or -p PID" "$tmp/e3" || fail "--phases -a: $r3 $(cat "$tmp/e3")"
echo "served $url: task-clock $a -> $b ns, page-faults $pf (as printed)"
