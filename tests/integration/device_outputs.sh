#!/usr/bin/env bash
# Every output option of every command written into a private character device node (made
# here as /dev/null is: mknod c 1 3) and into a FIFO with a reader: the node stays a device
# and the FIFO a FIFO (before, report and record --pprof renamed a regular file over them:
# as root, --pprof /dev/null turned /dev/null into a regular file), the command exits 0,
# no FILE.tmp-* is left beside them, and what came through the FIFO is the whole output
# (parsed by python3's json and xml, gzip -t, pmuscope report and olr --decode).
set -uo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PMS=$PMUSCOPE
fx=$PMS_FIXTURES
dev=$tmp/null
fifo=$tmp/fifo
mknod -m 666 "$dev" c 1 3 2>/dev/null || { echo "SKIP: mknod needs root (CAP_MKNOD)"; exit 77; }
mkfifo "$fifo"
failures=0
bad() { echo "FAIL: $*"; failures=$((failures + 1)); }

# What came through the FIFO, checked as its reader would.
validate() {
    local how=$1 file=$2
    [ -s "$file" ] || { echo "nothing came through"; return 1; }
    case $how in
    json) python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$file" ;;
    jsonl) python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1]) if l.strip()]' "$file" ;;
    xml) python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$file" ;;
    html) grep -q '</html>' "$file" ;;
    gzip) gzip -t <"$file" ;;
    perfdata) "$PMS" report -i "$file" >/dev/null ;;
    olr) "$PMS" olr --decode "$file" >/dev/null ;;
    text) true ;;
    esac
}

# out_case HOW CMD...: CMD with each @ replaced by the device node, then by the FIFO (read
# by cat into a file, checked by validate HOW).
out_case() {
    local how=$1
    shift
    local args=() a
    for a in "$@"; do args+=("${a//@/$dev}"); done
    "$PMS" "${args[@]}" >"$tmp/stdout" 2>"$tmp/err" || bad "$* into a device: exit $?: $(tail -1 "$tmp/err")"
    [ -c "$dev" ] || { bad "$* turned the device node into $(stat -c %F "$dev")"; rm -f "$dev"; mknod -m 666 "$dev" c 1 3; }
    args=()
    for a in "$@"; do args+=("${a//@/$fifo}"); done
    rm -f "$tmp/came"
    cat "$fifo" >"$tmp/came" &
    local reader=$!
    "$PMS" "${args[@]}" >"$tmp/stdout" 2>"$tmp/err" || bad "$* into a FIFO: exit $?: $(tail -1 "$tmp/err")"
    # A command that never opened the FIFO leaves its reader waiting: a writer that opens it
    # without blocking (none where the reader is gone) ends it; one that replaced it, too.
    [ -p "$fifo" ] || kill "$reader" 2>/dev/null
    python3 -c 'import os,sys
try: os.close(os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK))
except OSError: pass' "$fifo"
    wait "$reader"
    [ -p "$fifo" ] || { bad "$* turned the FIFO into $(stat -c %F "$fifo")"; rm -f "$fifo"; mkfifo "$fifo"; }
    local why
    why=$(validate "$how" "$tmp/came" 2>&1) || bad "$* into a FIFO: the output is not whole ($how): $why"
    if ls "$tmp" | grep -q '\.tmp-'; then bad "$*: left $(ls "$tmp" | grep '\.tmp-')"; rm -f "$tmp"/*.tmp-*; fi
    echo "ok: $*"
}

loop=$PMS_WORKLOADS/loop
"$PMS" record -e cpu-clock -c 200000 -o "$tmp/p.data" -- "$loop" 20000000 >/dev/null 2>&1 || { echo "FAIL: record"; exit 1; }
rec=(record -e cpu-clock -c 200000)
out_case perfdata "${rec[@]}" -o @ -- "$loop" 5000000
out_case gzip "${rec[@]}" -o "$tmp/r.data" --pprof @ -- "$loop" 5000000
out_case json "${rec[@]}" -o "$tmp/r.data" --json=@ -- "$loop" 5000000
out_case olr "${rec[@]}" -o "$tmp/r.data" --read page-faults --olr --olr-output @ -- "$loop" 5000000
out_case text "${rec[@]}" -o "$tmp/r.data" --read page-faults --olr --olr-csv --olr-output @ -- "$loop" 5000000

data=(-i "$tmp/p.data")
out_case text report "${data[@]}" -o @
out_case json report "${data[@]}" --json=@
out_case text report "${data[@]}" --csv=@
out_case html report "${data[@]}" --html @
out_case gzip report "${data[@]}" --pprof @

out_case text diff "${data[@]:1}" "${data[@]:1}" -o @
out_case json diff "${data[@]:1}" "${data[@]:1}" --json=@
out_case text diff "${data[@]:1}" "${data[@]:1}" --csv=@
out_case html diff "${data[@]:1}" "${data[@]:1}" --html @
out_case gzip diff "${data[@]:1}" "${data[@]:1}" --pprof @

out_case text stat -e task-clock -o @ -- true
out_case json stat -e task-clock --json=@ -- true
out_case json stat -e task-clock --json -o @ -- true
out_case text stat -e task-clock -x, -o @ -- true
out_case jsonl stat -e task-clock -j -o @ -- true
out_case text stat -e task-clock -I 100 --wide -o @ -- "$loop" 20000000
out_case text stat --schedule=runs --sizes 1-2 -e task-clock,page-faults -o @ -- "$PMS_WORKLOADS/sizes"

olr=$fx/olr/group.data
out_case text olr -o @ "$olr"
out_case json olr --json=@ "$olr"
out_case text olr --csv=@ "$olr"
out_case olr olr --method opt --store @ "$olr"
out_case text olr --decode @ "$olr"
out_case text olr --samples @ "$olr"
out_case xml olr --svg @ "$olr"
"$PMS" olr --method opt --eps 1 --store "$tmp/g.olr" "$olr" >/dev/null || bad "olr --store"
out_case text olr --decode "$tmp/g.olr" -o @

bb=$fx/bbv/two.bb
out_case text phase -o @ "$bb"
out_case text phase --csv=@ "$bb"
out_case json phase --json=@ "$bb"
out_case xml phase --svg @ "$bb"
out_case json phase --trace @ "$bb"
out_case text phase --write-bb @ "$bb"
out_case text phase --save-phases @ "$bb"
out_case text phase --simpoints @ "$bb"
out_case text phase --weights @ "$bb"

tsv=$fx/armpm/cbench-excerpt.tsv
cpi=(cpistack --group-by Benchmark --skip 2 "$tsv")
out_case text "${cpi[@]}" -o @
out_case text "${cpi[@]}" --csv=@
out_case json "${cpi[@]}" --json=@
out_case xml "${cpi[@]}" --svg @
out_case text "${cpi[@]}" --bootstrap 20 --bootstrap-replicates @

runs=(estimate "$fx/estimate/sizes_runs.csv" --train 1-8 --test 9,50)
out_case text "${runs[@]}" -o @
out_case text "${runs[@]}" --csv=@
out_case json "${runs[@]}" --json=@
out_case xml "${runs[@]}" --svg @
out_case text "${runs[@]}" --write-runs @
out_case text "${runs[@]}" --method lp --write-lp @
out_case text "${runs[@]}" --bootstrap 20 --bootstrap-replicates @

# hotspot: valgrind's exact counts of a short loop (built without sanitizers), a recording.
printf 'volatile unsigned long sink;\nint main(void) { for (unsigned long i = 0; i < 3000000; i++) sink += i; return 0; }\n' >"$tmp/loop.c"
${CC:-cc} -O1 -g -o "$tmp/hloop" "$tmp/loop.c" || { echo "FAIL: cc"; exit 1; }
"$PMS" hotspot --record-truth "$tmp/truth" -- "$tmp/hloop" >/dev/null 2>&1 || { echo "FAIL: --record-truth"; exit 1; }
"$PMS" record -e cpu-clock -c 100000 -o "$tmp/h.data" -- "$tmp/hloop" >/dev/null 2>&1 || { echo "FAIL: record"; exit 1; }
out_case text hotspot --truth "$tmp/truth" -o @ "$tmp/h.data"
out_case json hotspot --truth "$tmp/truth" --json=@ "$tmp/h.data"
sweep=(hotspot --truth "$tmp/truth" -e cpu-clock --sweep 100K,200K)
out_case text "${sweep[@]}" --csv=@ -- "$tmp/hloop"
out_case xml "${sweep[@]}" --svg @ -- "$tmp/hloop"

# A program with the region markers writes its report at exit to PMS_REGION_OUT: a device
# stays a device there too (before, a temporary file was renamed over it).
regions=$PMS_BUILD_DIR/tests/example_regions
PMS_REGION_EVENTS=page-faults PMS_REGION_OUT=$dev "$regions" -t 2 -p 10 >/dev/null 2>&1 || bad "regions into a device: exit $?"
[ -c "$dev" ] || { bad "PMS_REGION_OUT turned the device node into $(stat -c %F "$dev")"; rm -f "$dev"; mknod -m 666 "$dev" c 1 3; }
cat "$fifo" >"$tmp/came" &
PMS_REGION_EVENTS=page-faults PMS_REGION_OUT=$fifo "$regions" -t 2 -p 10 >/dev/null 2>&1 || bad "regions into a FIFO: exit $?"
wait $!
[ -p "$fifo" ] || bad "PMS_REGION_OUT turned the FIFO into $(stat -c %F "$fifo")"
why=$(validate json "$tmp/came" 2>&1) || bad "regions into a FIFO: the report is not whole: $why"
echo "ok: PMS_REGION_OUT"

out_case json list --json=@
out_case json demo --steps record -o "$tmp/demo" --json=@

[ $failures -eq 0 ] || { echo "$failures outputs broke a device or a FIFO"; exit 1; }
echo "device_outputs: ok"
