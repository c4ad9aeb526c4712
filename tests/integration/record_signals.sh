#!/usr/bin/env bash
# record stops on SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE and SIGALRM as on SIGTERM and
# SIGINT: the command ended with SIGTERM (exit 143, as perf record), a complete perf.data
# (perf script reads its samples) with the old one kept as .old, the segment file of --olr
# whole (it decodes without a word of a stop), the JSON summary whole, the summary said, no
# FILE.tmp-* left. Stopped before its first sample it leaves FILE as it was and no temporary
# file. SIGKILLed, it takes its command with it (PR_SET_PDEATHSIG). Before, each of these
# signals killed record with no summary, up to a second of samples lost, a FILE.tmp-* left
# in the first second and the command running on. Waits are on what happened (the command
# started, its CPU time), never on wall time.
# ctest-labels: serial
set -uo pipefail
tmp=$(mktemp -d)
rec=
trap '[ -n "$rec" ] && kill -9 "$rec" 2>/dev/null; rm -rf "$tmp"' EXIT
P=$PMUSCOPE
fail() { echo "FAIL: $*"; exit 1; }
source "$PMS_SOURCE_DIR/tests/lib/processes.sh"
loop=$PMS_WORKLOADS/loop
endless=100000000000000 # iterations: hours of CPU, it runs until it is ended

no_temporaries() { if ls "$tmp" | grep -q '\.tmp-'; then fail "$1: left $(ls "$tmp" | grep '\.tmp-')"; fi; }

for sig in HUP QUIT USR1 USR2 PIPE ALRM TERM INT; do
    rm -f "$tmp"/s.*
    echo "the old recording" >"$tmp/s.data"
    "$P" record -e cpu-clock -c 100000 --read page-faults --olr -o "$tmp/s.data" --json="$tmp/s.json" \
        -- "$loop" "$endless" >"$tmp/out" 2>"$tmp/err" &
    rec=$!
    target=$(child_of "$rec" loop)
    wait_cpu_ms "$target" 300
    kill -"$sig" "$rec"
    wait "$rec"
    rc=$?
    rec=
    [ "$rc" = 143 ] || fail "SIG$sig: exit $rc, expected 143 (the command ended by SIGTERM): $(cat "$tmp/err")"
    kill -0 "$target" 2>/dev/null && fail "SIG$sig: the command $target runs on"
    grep -q 'Captured and wrote .*/s\.data ([1-9][0-9]* samples)' "$tmp/err" || fail "SIG$sig: no summary: $(cat "$tmp/err")"
    [ "$(perf script -i "$tmp/s.data" 2>/dev/null | wc -l)" -gt 0 ] || fail "SIG$sig: perf script reads no sample"
    [ "$(cat "$tmp/s.data.old")" = "the old recording" ] || fail "SIG$sig: the old file was not kept"
    "$P" olr --decode "$tmp/s.data.olr" -o "$tmp/decoded.csv" 2>"$tmp/warn" || fail "SIG$sig: olr --decode: $(cat "$tmp/warn")"
    [ -s "$tmp/warn" ] && fail "SIG$sig: the segment file is not whole: $(cat "$tmp/warn")"
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["samples"] > 0, d' "$tmp/s.json" ||
        fail "SIG$sig: the JSON summary: $(head -c 300 "$tmp/s.json")"
    no_temporaries "SIG$sig"
    echo "ok: SIG$sig: exit 143, $(grep -o '([0-9]* samples)' "$tmp/err"), no command left"
done

# Stopped before the first sample (a period of a second of CPU, a command that sleeps):
# FILE stays as it was, no temporary file.
rm -f "$tmp"/s.*
echo "the old recording" >"$tmp/s.data"
"$P" record -e cpu-clock -c 1000000000 -o "$tmp/s.data" -- sleep 1000 >"$tmp/out" 2>"$tmp/err" &
rec=$!
wait_exec "$(child_of "$rec" sleep)" sleep
kill -HUP "$rec"
wait "$rec"
rc=$?
rec=
[ "$rc" = 143 ] || fail "HUP before a sample: exit $rc: $(cat "$tmp/err")"
[ "$(cat "$tmp/s.data")" = "the old recording" ] || fail "a recording stopped before its first sample replaced FILE"
grep -q "stopped before the first sample: $tmp/s.data left as it was" "$tmp/err" || fail "no word of it: $(cat "$tmp/err")"
no_temporaries "HUP before a sample"
echo "ok: stopped before its first sample: FILE as it was, nothing left"

# SIGKILL: nothing can be finished, but the command goes too (its CPU time stops growing
# before it has run 2 s more: a command left running would go on).
"$P" record -e cpu-clock -c 100000 -o "$tmp/k.data" -- "$loop" "$endless" >"$tmp/out" 2>"$tmp/err" &
rec=$!
target=$(child_of "$rec" loop)
wait_cpu_ms "$target" 300
killed_at=$(cut -d' ' -f1 "/proc/$target/schedstat")
kill -9 "$rec"
wait "$rec" 2>/dev/null
rec=
while ns=$(cut -d' ' -f1 "/proc/$target/schedstat" 2>/dev/null) && [ -n "$ns" ]; do
    grep -q '^State:.*Z' "/proc/$target/status" 2>/dev/null && break # dead, its reaper not yet there
    [ "$ns" -lt $((killed_at + 2000000000)) ] || { kill -9 "$target"; fail "SIGKILL: the command $target runs on"; }
    sleep 0.02
done
echo "ok: SIGKILL: the command went with record"
echo "record_signals: ok"
