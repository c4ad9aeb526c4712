#!/bin/bash
# Ctrl-C during `pmuscope phase -- CMD` stops the command, as the terminal sends SIGINT to its
# whole foreground process group, and phase reports what ran. phase itself keeps going on
# SIGINT for that; it used to ignore it (SIG_IGN), a disposition the command inherits across
# exec, so Debian's xz (or python3) ignored Ctrl-C and ran on to its end. Here xz compresses
# /dev/zero, which never ends: the SIGINT sent to the process group must end it, and phase
# must say so and still print its timeline and summary. The command's own signal mask is
# checked too (bash reading /proc/self/status under phase: SIGINT not ignored).
# The `timeout` only keeps a failure from hanging the suite.
set -euo pipefail
command -v xz > /dev/null && command -v setsid > /dev/null || { echo "SKIP: xz or setsid is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# The command's ignored signals (SigIgn, a hex mask: SIGINT is bit 2).
"$PMUSCOPE" phase -q -o /dev/null -- bash -c 'grep ^SigIgn: /proc/self/status > "$0"; x=0; while [ $x -lt 300000 ]; do x=$((x + 1)); done' \
    "$tmp/sigign" 2> /dev/null || true
ign=$(awk '{ print $2 }' "$tmp/sigign")
[ -n "$ign" ] || fail "the command under phase did not run"
(( (16#$ign & 2) == 0 )) || fail "the command under phase ignores SIGINT: SigIgn $ign"

# Ctrl-C: SIGINT to the process group of phase and xz, once xz has been sampled a while.
setsid timeout 120 "$PMUSCOPE" phase -q -o "$tmp/phase.txt" -- xz -c /dev/zero > /dev/null 2> "$tmp/err" &
leader=$!
for _ in $(seq 1 100); do
    pgrep -s "$leader" -x xz > /dev/null && break
    sleep 0.1
done
pgrep -s "$leader" -x xz > /dev/null || fail "xz did not start under phase: $(cat "$tmp/err")"
sleep 1
kill -INT -- -"$leader"
set +e; wait "$leader"; rc=$?; set -e
[ "$rc" != 124 ] || fail "xz ran on after Ctrl-C (stopped by timeout): $(cat "$tmp/err")"
[ "$rc" = 0 ] || fail "phase exited $rc: $(cat "$tmp/err")"
grep -q '^pmuscope: warning: xz was killed by signal 2$' "$tmp/err" || fail "no word of the SIGINT: $(cat "$tmp/err")"
grep -q '^timeline: [0-9a-z.]' "$tmp/phase.txt" && grep -q '^  intervals ' "$tmp/phase.txt" ||
    fail "no report of what ran: $(head -5 "$tmp/phase.txt")"
echo ok
