#!/usr/bin/env bash
# hotspot's degenerate cases (degenerate_inputs.sh has the other commands): a recording
# with no sample is refused; one with a sampled IP or two (no Kendall tau) is reported
# without nan or inf. valgrind runs the workload, which cannot be an ASan build.
# ctest-labels: no-sanitize
set -uo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$PMUSCOPE
F=$PMS_FIXTURES
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# refused WHAT MESSAGE CMD...: exit 1 and MESSAGE (a grep -E pattern) on stderr.
refused() {
    local what=$1 msg=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -ne 1 ] || ! grep -Eq -- "$msg" "$tmp/err"; then
        fail "$what: exit $rc, wanted 1 and /$msg/: $(cat "$tmp/err")"
    else
        echo "ok: $what: $(cat "$tmp/err")"
    fi
}

# clean WHAT CMD...: exit 0, and no output of the run (stdout, stderr, every file written
# under $tmp/o) holds nan or inf as a word; every JSON null has its reason.
clean() {
    local what=$1
    shift
    rm -rf "$tmp/o"
    mkdir "$tmp/o"
    "$@" >"$tmp/o/stdout" 2>"$tmp/o/stderr"
    local rc=$?
    [ "$rc" -eq 0 ] || { fail "$what: exit $rc: $(cat "$tmp/o/stderr")"; return; }
    if grep -EiwH -- '-?(nan|inf|infinity)%?' "$tmp"/o/*; then
        fail "$what: nan or inf in an output"
        return
    fi
    for f in "$tmp"/o/*; do
        python3 - "$f" <<'EOF' || fail "$what: $f: a null without its reason"
import json, sys
try:
    doc = json.load(open(sys.argv[1]))
except ValueError:
    sys.exit(0)  # not JSON
def walk(v):
    if isinstance(v, dict):
        for k, x in v.items():
            if x is None and k + "_reason" not in v and k not in ("fit", "loo", "partial", "truth"):
                print(sys.argv[1], "null without a reason:", k)
                sys.exit(1)
            walk(x)
    elif isinstance(v, list):
        for x in v: walk(x)
walk(doc)
EOF
    done
    echo "ok: $what"
}

# ---- a recording with no sample (a 10 s period), and one with a few (tau-b may be undefined)
"$P" hotspot --record-truth "$tmp/truth.d" -- "$PMS_WORKLOADS/hotspots" >/dev/null 2>&1 || fail "record-truth"
perf record -q -e cpu-clock:u -c 10000000000 -o "$tmp/zero.data" -- "$PMS_WORKLOADS/hotspots" >/dev/null 2>&1
[ "$(perf script -i "$tmp/zero.data" -F ip 2>/dev/null | wc -l)" -eq 0 ] || fail "zero.data has samples"
refused "hotspot on zero samples" "no sample to compare with the truth" \
    "$P" hotspot --truth "$tmp/truth.d" "$tmp/zero.data"
perf record -q -e cpu-clock:u -c 20000000 -o "$tmp/few.data" -- "$PMS_WORKLOADS/hotspots" >/dev/null 2>&1
n=$(perf script -i "$tmp/few.data" -F ip 2>/dev/null | wc -l)
clean "hotspot --json with $n samples" "$P" hotspot --truth "$tmp/truth.d" --json="$tmp/o/h.json" "$tmp/few.data"
clean "hotspot text with $n samples" "$P" hotspot --truth "$tmp/truth.d" "$tmp/few.data"

# a sweep whose command fails says the command's status (it said "pmuscope record failed")
refused "hotspot --sweep of a command that exits 3" "sh exited with status 3 while recorded at period" \
    "$P" hotspot --sweep 1M --truth "$tmp/truth.d" --allow-other-run -- sh -c 'exit 3'

[ "$failures" -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "all degenerate cases ok"
