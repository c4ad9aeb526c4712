# Shell helpers for the tests of `pmuscope stat --serve`. Source it; the caller defines fail()
# and an array pids whose processes its cleanup kills.

# serve_start ERRFILE ARG...: starts `pmuscope stat --serve 0 ARG...` (any free port on
# 127.0.0.1), its standard error in ERRFILE, and once it serves sets exporter (its pid), url
# (http://127.0.0.1:PORT/metrics) and port.
serve_start() {
    local err=$1
    shift
    : > "$err" # not an earlier exporter's URL: the new one truncates the file only once it runs
    "$PMUSCOPE" stat --serve 0 "$@" 2> "$err" &
    exporter=$!
    pids+=("$exporter")
    until url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/metrics' "$err" 2>/dev/null); do
        kill -0 "$exporter" 2>/dev/null || fail "the exporter ended before serving: $(cat "$err")"
        sleep 0.05
    done
    port=${url##*:}
    port=${port%/metrics}
}

# A free TCP port on 127.0.0.1 for another server (Prometheus, node_exporter).
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
