#!/bin/bash
# hotspot --sweep -- gzip -c < FILE, as a newcomer writes it: the file the shell gave pmuscope
# as its standard input is what every run reads (opened by its name for each run, as --stdin
# FILE), where before the runs silently read /dev/null and gzip compressed nothing. Checked
# against a standalone `valgrind --tool=callgrind gzip -9 -c < FILE` (the truth's instructions
# within 0.1%) and against the same sweep with --stdin FILE (the same truth, within 0.1%); a
# pipe, which the runs cannot each read whole, leaves them /dev/null with a warning that says so.
# ctest-labels: no-sanitize
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/hotspot_debian.sh"
need_tools gzip

python3 - "$tmp/in.txt" <<'PY'
import random, sys
r = random.Random(7)
words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu".split()
open(sys.argv[1], "w").write("".join(" ".join(r.choice(words) + str(r.randrange(1000)) for _ in range(8)) + "\n"
                                     for _ in range(3000)))
PY
sweep() { "$PMUSCOPE" hotspot -q --sweep 64K --fallback --json "$@"; }

sweep -o "$tmp/redirect.json" -- gzip -9 -c < "$tmp/in.txt" 2> "$tmp/redirect.err" ||
    fail "hotspot -- gzip -9 -c < in.txt: $(cat "$tmp/redirect.err")"
[ "$(jq -r .stdin "$tmp/redirect.json")" = "$tmp/in.txt" ] || fail "stdin: $(jq .stdin "$tmp/redirect.json")"
sweep -o "$tmp/named.json" --stdin "$tmp/in.txt" -- gzip -9 -c < /dev/null 2> "$tmp/named.err" ||
    fail "hotspot --stdin in.txt: $(cat "$tmp/named.err")"
valgrind --tool=callgrind --callgrind-out-file="$tmp/ref.out" --log-file="$tmp/ref.log" gzip -9 -c < "$tmp/in.txt" > /dev/null ||
    fail "standalone valgrind"
ref=$(awk '/^summary:/ { s += $2 } END { printf "%d", s }' "$tmp/ref.out")
within() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 0.001 * b) }'; }
redirect=$(jq .truth.instructions "$tmp/redirect.json")
named=$(jq .truth.instructions "$tmp/named.json")
within "$redirect" "$ref" || fail "< in.txt: the truth counts $redirect instructions, standalone callgrind $ref"
within "$redirect" "$named" || fail "< in.txt: $redirect instructions, --stdin in.txt: $named"
# the native run compressed the file too: its samples lie in gzip's code, as valgrind saw it
jq -e '.runs_differ == null and all(.periods[]; .measured and .outside_truth_share < 0.05)' "$tmp/redirect.json" > /dev/null ||
    fail "< in.txt: $(jq -c '{runs_differ, p: [.periods[] | {ns, measured, outside_truth_share}]}' "$tmp/redirect.json")"

# A pipe: /dev/null for every run, and a warning.
sweep -o "$tmp/pipe.json" -- gzip -9 -c < <(cat "$tmp/in.txt") 2> "$tmp/pipe.err" || fail "hotspot < pipe: $(cat "$tmp/pipe.err")"
grep -q '^pmuscope: warning: the standard input is a pipe, which the runs cannot each read whole: every run reads /dev/null (give the command.s input with --stdin FILE)$' \
    "$tmp/pipe.err" || fail "pipe: no warning: $(cat "$tmp/pipe.err")"
[ "$(jq -r .stdin "$tmp/pipe.json")" = /dev/null ] || fail "pipe: stdin $(jq .stdin "$tmp/pipe.json")"
pipe=$(jq .truth.instructions "$tmp/pipe.json")
[ "$pipe" -lt $((ref / 10)) ] || fail "pipe: the truth counts $pipe instructions, as many as gzip on the file ($ref)"
echo "ok: < in.txt $redirect instructions, --stdin $named, standalone callgrind $ref; a pipe: $pipe"
