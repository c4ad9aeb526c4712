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
# The command exits 3: so does phase, as stat and record return the command's status.
rc=0
"$PMUSCOPE" phase -q -o /dev/null -- bash -c 'grep ^SigIgn: /proc/self/status > "$0"; x=0; while [ $x -lt 300000 ]; do x=$((x + 1)); done; exit 3' \
    "$tmp/sigign" 2> "$tmp/err" || rc=$?
ign=$(awk '{ print $2 }' "$tmp/sigign")
[ -n "$ign" ] || fail "the command under phase did not run"
(( (16#$ign & 2) == 0 )) || fail "the command under phase ignores SIGINT: SigIgn $ign"
[ "$rc" = 3 ] && grep -q '^pmuscope: warning: bash exited with status 3$' "$tmp/err" ||
    fail "a command that exits 3: phase exited $rc: $(cat "$tmp/err")"

# Ctrl-C: SIGINT to the process group of phase and xz, once xz has run 300 ms of CPU time.
setsid timeout 120 "$PMUSCOPE" phase -q -o "$tmp/phase.txt" -- xz -c /dev/zero > /dev/null 2> "$tmp/err" &
leader=$!
. "$PMS_SOURCE_DIR/tests/lib/processes.sh"
until xz=$(pgrep -s "$leader" -x xz); do
    kill -0 "$leader" 2> /dev/null || fail "xz did not start under phase: $(cat "$tmp/err")"
    sleep 0.05
done
wait_cpu_ms "$xz" 300 # intervals of 28 ms of its CPU time: about ten
kill -INT -- -"$leader"
set +e; wait "$leader"; rc=$?; set -e
[ "$rc" != 124 ] || fail "xz ran on after Ctrl-C (stopped by timeout): $(cat "$tmp/err")"
[ "$rc" = 130 ] || fail "phase exited $rc, not xz's 128 + SIGINT: $(cat "$tmp/err")"
grep -q '^pmuscope: warning: xz was killed by signal 2$' "$tmp/err" || fail "no word of the SIGINT: $(cat "$tmp/err")"
grep -q '^timeline: [0-9a-z.]' "$tmp/phase.txt" && grep -q '^  intervals ' "$tmp/phase.txt" ||
    fail "no report of what ran: $(head -5 "$tmp/phase.txt")"
echo ok
