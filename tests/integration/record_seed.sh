#!/usr/bin/env bash
# record --seed: the same seed gives the same sequence of randomised periods, another seed
# another sequence; --seed without --randomize is a usage error. The samples show the period
# in force when each was taken, so which periods appear (and how often) depends on timing:
# a period replaced before any sample fell in it never shows. So the runs are compared as
# sequences of distinct consecutive periods, which must match almost entirely in order.
# ctest-labels: serial
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

periods() { # SEED OUT: the periods after the leading base ones, as perf script reads them
  "$PMUSCOPE" record -e cpu-clock -c 200000 --randomize=mask:16 --seed "$1" -o "$tmp/s.data" \
    -- "$PMS_WORKLOADS/hotspots" 2>/dev/null
  perf script -i "$tmp/s.data" -F period 2>/dev/null | tr -d ' ' | awk 'started || $1 != 200000 { started = 1; print }' | uniq >"$2"
  [ "$(wc -l <"$2")" -ge 100 ] || fail "seed $1: only $(wc -l <"$2") randomised periods"
}
periods 7 "$tmp/a"
periods 7 "$tmp/b"
periods 8 "$tmp/c"
similarity() { # A B: the share of the two sequences that matches in order (difflib)
  python3 -c 'import difflib, sys
a, b = (open(f).read().split() for f in sys.argv[1:3])
print(round(difflib.SequenceMatcher(None, a, b, autojunk=False).ratio(), 3))' "$1" "$2"
}
same=$(similarity "$tmp/a" "$tmp/b")
other=$(similarity "$tmp/a" "$tmp/c")
echo "seed 7 twice: $same of the period sequence in common; seeds 7 and 8: $other"
awk -v s="$same" 'BEGIN { exit !(s >= 0.9) }' || fail "seed 7 gave two different period sequences ($same)"
awk -v s="$other" 'BEGIN { exit !(s < 0.2) }' || fail "seeds 7 and 8 gave similar periods ($other)"
awk '$1 < 200000 || $1 >= 200000 + 65536 { bad++ } END { exit bad > 0 }' "$tmp/a" || fail "a period outside [base, base + 2^16)"
if "$PMUSCOPE" record -e cpu-clock -c 200000 --seed 7 -o "$tmp/x.data" -- true 2>"$tmp/err"; then
  fail "--seed without --randomize was accepted"
fi
grep -q -- "--seed only applies with --randomize" "$tmp/err" || fail "unclear message: $(cat "$tmp/err")"
echo "record_seed: ok"
