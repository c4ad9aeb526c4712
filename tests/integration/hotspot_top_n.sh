#!/bin/bash
# Top-N precision of Debian's gzip against a truth of another of its runs, where many sampled
# IPs never ran under valgrind (gzip -9 compresses with deflate's lazy matcher, gzip -1 with
# its fast one). With N above every count, the top N of either list is all of it, so the
# precision is exactly the share of sampled IPs that ran: m_covered / m. The merge of the
# sampled IPs into the truth's instructions wrote each instruction's count at the slot of a
# never-executed IP sampled just before it, and said 0.822 where 66 of 90 had run (on
# gzip -c of another input, 1.000 for 30 of 32; the default top 10 moved only where such
# an instruction was among the hottest).
# ctest-labels: no-sanitize
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v gzip >/dev/null && command -v valgrind >/dev/null && command -v perf >/dev/null || exit 77
P="${PMUSCOPE:?}"
cd "$tmp"
seq 1 20000 >small.txt
seq 1 300000 | sed 's/$/ gzip top-n/' >big.txt
"$P" hotspot --record-truth t -- gzip -1 -c small.txt >/dev/null 2>err || fail "record-truth: $(cat err)"
perf record -q -e cpu-clock:u -c 100000 -o h.data -- gzip -9 -c big.txt >/dev/null 2>&1 || exit 77
"$P" hotspot --truth t --allow-other-run --top 1000000 --json h.data >h.json 2>err || fail "hotspot: $(cat err)"
read -r m covered precision < <(jq -r '"\(.m) \(.m_covered) \(.top_precision)"' h.json)
[ "$covered" -lt "$m" ] || fail "every one of the $m sampled IPs ran under valgrind: nothing to check"
awk -v p="$precision" -v c="$covered" -v m="$m" 'BEGIN { d = p - c / m; exit !(d < 1e-12 && d > -1e-12) }' ||
    fail "top-1000000 precision $precision, wanted $covered/$m"
echo "ok: top-N precision $precision = $covered/$m"
