#!/usr/bin/env bash
# hotspot's degenerate cases (degenerate_inputs.sh has the other commands): a recording
# with no sample is refused; one with a sampled IP or two (no Kendall tau) is reported
# without nan or inf. valgrind runs the workload, which cannot be an ASan build.
# ctest-labels: no-sanitize
set -uo pipefail
. "$PMS_SOURCE_DIR/tests/lib/degenerate.sh"

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
