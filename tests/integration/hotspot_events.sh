#!/bin/bash
# hotspot --truth on a recording of Debian's gzip with two events (`perf record -e A -e B`,
# or a sweep's sweep.data): the measures score one event's samples, and taking the first
# event's left the other's out without a word (the report said "170 samples" of a file of
# 340). Refused, naming the events; a recording of one of them is scored with every sample
# perf script lists for it. One sampled by frequency is said to be, not "period 0".
# ctest-labels: no-sanitize
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v gzip >/dev/null && command -v valgrind >/dev/null && command -v perf >/dev/null || exit 77
P="${PMUSCOPE:?}"

head -c 600000 /dev/zero | tr '\0' 'a' >"$tmp/in.txt"
seq 1 60000 >>"$tmp/in.txt"
"$P" hotspot --record-truth "$tmp/truth" --stdin "$tmp/in.txt" -- gzip -9 -c >/dev/null 2>"$tmp/err" ||
    fail "record-truth: $(cat "$tmp/err")"
perf record -q -e cpu-clock:u -e task-clock:u -c 400000 -o "$tmp/two.data" -- gzip -9 -c \
    <"$tmp/in.txt" >/dev/null 2>&1 || exit 77 # perf cannot sample here
[ "$(perf evlist -i "$tmp/two.data" 2>/dev/null | wc -l)" -eq 2 ] || fail "two.data: $(perf evlist -i "$tmp/two.data")"

rc=0
"$P" hotspot --truth "$tmp/truth" "$tmp/two.data" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] || fail "two events: exit $rc, wanted 1: $(cat "$tmp/out" "$tmp/err")"
grep -q "two.data records 2 events (cpu-clock:u period 400000, task-clock:u period 400000)" "$tmp/err" ||
    fail "two events: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "two events: a report was written: $(head -3 "$tmp/out")"

# One event: every sample perf script lists is counted (the truth holds its user-space IPs).
perf record -q -e cpu-clock:u -c 200000 -o "$tmp/one.data" -- gzip -9 -c <"$tmp/in.txt" >/dev/null 2>&1
want=$(perf script -i "$tmp/one.data" -F ip 2>/dev/null | wc -l)
"$P" hotspot --truth "$tmp/truth" --json "$tmp/one.data" >"$tmp/one.json" 2>"$tmp/err" || fail "one event: $(cat "$tmp/err")"
got=$(jq -r '.recording.samples // .samples // empty' "$tmp/one.json")
[ "$got" = "$want" ] || fail "one event: $got samples in the JSON, perf script lists $want"

# Sampled by frequency (perf record -F, as pmuscope record by default): no fixed period; the
# report said "period 0 ns".
perf record -q -e cpu-clock:u -F 997 -o "$tmp/freq.data" -- gzip -9 -c <"$tmp/in.txt" >/dev/null 2>&1
perf evlist -v -i "$tmp/freq.data" 2>/dev/null | grep -q 'freq: 1' || fail "freq.data: $(perf evlist -v -i "$tmp/freq.data")"
"$P" hotspot --truth "$tmp/truth" "$tmp/freq.data" >"$tmp/freq.txt" 2>"$tmp/err" || fail "by frequency: $(cat "$tmp/err")"
grep -q '^recording .* samples of cpu-clock:u, sampled by frequency (no fixed period);' "$tmp/freq.txt" ||
    fail "by frequency: $(grep ^recording "$tmp/freq.txt")"
echo "ok: two events refused; one event: $got samples as perf script; by frequency said"
