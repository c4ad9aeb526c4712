#!/usr/bin/env bash
# Every output of every command written to /dev/full (ENOSPC at the flush or close):
# pmuscope exits 1 and names the file (or standard output) and the reason.
set -uo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$PMUSCOPE
fx=$PMS_FIXTURES
failures=0

# full NAME CMD...: CMD must exit 1 with "cannot write NAME: No space left on device".
full() {
    local name=$1 rc
    shift
    "$@" 2>"$tmp/err"; rc=$?
    if [ $rc -ne 1 ] || ! grep -q "^pmuscope: cannot write $name: No space left on device" "$tmp/err"; then
        echo "FAIL (exit $rc): $*"; sed 's/^/    /' "$tmp/err"; failures=$((failures + 1))
    else
        echo "ok: $*"
    fi
}
out="standard output"

full "$out" $P --version >/dev/full
full "$out" $P --help >/dev/full
full "$out" $P list >/dev/full
full "$out" $P list --json >/dev/full

full /dev/full $P stat -e task-clock -o /dev/full -- true
full /dev/full $P stat -e task-clock --json -o /dev/full -- true
full /dev/full $P stat -e task-clock -x, -o /dev/full -- true
full /dev/full $P stat -e task-clock --wide -o /dev/full -- true
full "$out" $P stat -e task-clock --json -- true >/dev/full
# stat's default output is stderr: when that is full nothing can be said, but the exit says it
$P stat -e task-clock -- true 2>/dev/full; rc=$?
if [ $rc -ne 1 ]; then echo "FAIL (exit $rc): stat 2>/dev/full"; failures=$((failures + 1)); fi

perf record -q -e cpu-clock -c 200000 -o "$tmp/p.data" -- "$PMS_WORKLOADS/hotspots" >/dev/null 2>&1
full "$out" $P report -i "$tmp/p.data" >/dev/full
full /dev/full $P report -i "$tmp/p.data" -o /dev/full
full /dev/full $P report -i "$tmp/p.data" --json=/dev/full
full /dev/full $P report -i "$tmp/p.data" --csv=/dev/full
full "$out" $P report -i "$tmp/p.data" --json >/dev/full
full /dev/full $P report -i "$tmp/p.data" --html /dev/full -o "$tmp/r.txt"

runs=("$fx/estimate/sizes_runs.csv" --train 1-8 --test 9,50)
full "$out" $P estimate "${runs[@]}" >/dev/full
full "$out" $P estimate "${runs[@]}" --json >/dev/full
full /dev/full $P estimate "${runs[@]}" --csv /dev/full
full /dev/full $P estimate "${runs[@]}" --svg /dev/full
full /dev/full $P estimate "${runs[@]}" --write-runs /dev/full
full /dev/full $P estimate "${runs[@]}" --write-lp /dev/full

bb=$fx/bbv/two.bb
full "$out" $P phase "$bb" >/dev/full
full "$out" $P phase --json "$bb" >/dev/full
full /dev/full $P phase -o /dev/full "$bb"
full /dev/full $P phase --csv /dev/full "$bb"
full /dev/full $P phase --svg /dev/full "$bb"
full /dev/full $P phase --write-bb /dev/full "$bb"

data=$fx/olr/group.data
full "$out" $P olr "$data" >/dev/full
full "$out" $P olr --json "$data" >/dev/full
full /dev/full $P olr -o /dev/full "$data"
full /dev/full $P olr --json=/dev/full "$data"
full /dev/full $P olr --csv=/dev/full "$data"
full /dev/full $P olr --decode /dev/full "$data"
full /dev/full $P olr --samples /dev/full "$data"
full /dev/full $P olr --svg /dev/full "$data"

tsv=$fx/armpm/cbench-excerpt.tsv
full "$out" $P cpistack --by Benchmark --skip 2 "$tsv" >/dev/full
full "$out" $P cpistack --by Benchmark --skip 2 --json "$tsv" >/dev/full
full /dev/full $P cpistack --by Benchmark --skip 2 --csv /dev/full "$tsv"
full /dev/full $P cpistack --by Benchmark --skip 2 --svg /dev/full "$tsv"

[ $failures -eq 0 ] || { echo "$failures outputs not checked"; exit 1; }
echo "write_errors: ok"
