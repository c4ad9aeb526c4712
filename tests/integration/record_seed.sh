#!/usr/bin/env bash
# record --seed: the same seed gives the same sequence of randomised periods, another seed
# another sequence, no --seed the sequence of seed 1 (the default of every command; the
# summary says the seed); --seed without --randomize is a usage error. The samples show the period
# in force when each was taken, so which periods appear (and how often) depends on timing:
# a period replaced before any sample fell in it never shows. So the runs are compared as
# sequences of distinct consecutive periods: those both runs show must come in one order.
# (A period that averages under 1 ms is kept for several samples, 5 here: the command runs
# long enough for some 300 draws.)
# ctest-labels: serial
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

periods() { # SEED OUT: the periods after the leading base ones, as perf script reads them (SEED "": no --seed)
  "$PMUSCOPE" record -e cpu-clock -c 200000 --randomize=mask:16 ${1:+--seed "$1"} -o "$tmp/s.data" \
    -- "$PMS_WORKLOADS/hotspots" --scale 3 2>"$tmp/summary"
  grep -q -- "--randomize=mask:16 --seed ${1:-1}: " "$tmp/summary" || fail "the summary does not say the seed: $(cat "$tmp/summary")"
  perf script -i "$tmp/s.data" -F period 2>/dev/null | tr -d ' ' | awk 'started || $1 != 200000 { started = 1; print }' | uniq >"$2"
  [ "$(wc -l <"$2")" -ge 100 ] || fail "seed $1: only $(wc -l <"$2") randomised periods"
}
periods 7 "$tmp/a"
periods 7 "$tmp/b"
periods 8 "$tmp/c"
# How many periods of the shorter sequence are also in the other (as multisets), and how
# many of those appear in the same order (the longest common subsequence). The drains that
# set new periods come as the CPU allows, so a run skips periods that another shows:
# the same seed must give the same order of what both show, however many that is.
compare() { # A B: "common in_order"
  python3 -c 'import sys
from collections import Counter
a, b = (open(f).read().split() for f in sys.argv[1:3])
common = sum((Counter(a) & Counter(b)).values())
prev = [0] * (len(b) + 1)
for x in a:
    cur = [0]
    for j, y in enumerate(b):
        cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
    prev = cur
print(common, prev[-1])' "$1" "$2"
}
# No --seed is --seed 1, as in every command: the same order again.
periods 1 "$tmp/d"
periods "" "$tmp/e"
read -r common_default ordered_default < <(compare "$tmp/d" "$tmp/e")
[ "$common_default" -ge 50 ] && [ "$ordered_default" -ge $((common_default * 95 / 100)) ] ||
  fail "without --seed the periods differ from --seed 1 ($ordered_default of $common_default in order)"
read -r common ordered < <(compare "$tmp/a" "$tmp/b")
read -r common_other _ < <(compare "$tmp/a" "$tmp/c")
echo "seed 7 twice: $common periods in common, $ordered of them in the same order; seeds 7 and 8: $common_other in common"
[ "$common" -ge 50 ] && [ "$ordered" -ge $((common * 95 / 100)) ] || fail "seed 7 gave two different period sequences"
# 16-bit random periods: two unrelated sequences of a few hundred share a few by chance
# (n^2 / 65536: about 5 for 600 each).
[ "$common_other" -lt $((common / 10)) ] || fail "seeds 7 and 8 gave similar periods ($common_other in common)"
awk '$1 < 200000 || $1 >= 200000 + 65536 { bad++ } END { exit bad > 0 }' "$tmp/a" || fail "a period outside [base, base + 2^16)"
if "$PMUSCOPE" record -e cpu-clock -c 200000 --seed 7 -o "$tmp/x.data" -- true 2>"$tmp/err"; then
  fail "--seed without --randomize was accepted"
fi
grep -q -- "--seed only applies with --randomize" "$tmp/err" || fail "unclear message: $(cat "$tmp/err")"
echo "record_seed: ok"
