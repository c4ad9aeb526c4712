#!/bin/bash
# --record-truth (and a sweep's --save-truth) into a directory that holds an earlier truth:
# the earlier run's profiles of other processes stayed and joined the new truth as processes
# of its command (gzip's truth over a truth of `sh -c 'gzip; xz'` said "in 4 processes",
# with 6.6 times gzip's instructions). Now they are removed first, and the truth is gzip's
# alone: one process, the instructions of a plain callgrind run of the same command. A
# directory with callgrind profiles that no truth wrote is refused and left as it was.
# ctest-labels: no-sanitize
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v gzip >/dev/null && command -v xz >/dev/null && command -v valgrind >/dev/null &&
    command -v perf >/dev/null || exit 77
P="${PMUSCOPE:?}"

seq 1 20000 >"$tmp/in.txt"
cd "$tmp"
"$P" hotspot --record-truth t -- sh -c 'gzip -c in.txt >/dev/null; xz -c in.txt >/dev/null' 2>err ||
    fail "record-truth sh: $(cat err)"
"$P" hotspot --record-truth t -- gzip -c in.txt >/dev/null 2>err || fail "record-truth gzip: $(cat err)"
perf record -q -e cpu-clock:u -c 100000 -o gz.data -- gzip -c in.txt >/dev/null 2>&1 || exit 77
"$P" hotspot --truth t --json gz.data >h.json 2>err || fail "hotspot --truth: $(cat err)"
processes=$(jq -r .truth.processes h.json)
got=$(jq -r .truth.instructions h.json)
[ "$processes" = 1 ] || fail "gzip's truth has $processes processes (an earlier truth's profiles joined it)"

valgrind -q --tool=callgrind --callgrind-out-file=plain.out gzip -c in.txt >/dev/null 2>&1
want=$(awk '/^(summary|totals):/ { print $2; exit }' plain.out)
# the same command, one process: the counts agree to well under 1% (the environment and
# auxiliary vector that ld.so reads differ a little between the runs)
awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(w > 0 && d < 0.01 * w) }' ||
    fail "gzip's truth: $got instructions, a plain callgrind run $want"

mkdir own
cp plain.out own/callgrind.out.77
rc=0
"$P" hotspot --record-truth own -- true >/dev/null 2>err || rc=$?
[ "$rc" -eq 1 ] && grep -q "own/callgrind.out.77 is a callgrind profile that no pmuscope truth wrote" err ||
    fail "own profiles: exit $rc: $(cat err)"
cmp -s plain.out own/callgrind.out.77 || fail "own/callgrind.out.77 was changed"
echo "ok: 1 process, $got instructions (plain callgrind: $want); a directory of other profiles refused"
