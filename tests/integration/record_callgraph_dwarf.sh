#!/bin/bash
# pmuscope record --call-graph dwarf: user registers and stack copies that perf unwinds.
# On calltree_nofp (the calltree workload at -O2 without frame pointers): the attr carries
# what perf record --call-graph dwarf sets (REGS_USER, STACK_USER, the x86_64 register mask,
# 8192 bytes, exclude_callchain_user, data mmaps), and perf report --children on pmuscope's
# file unwinds every level of the call tree: each function of it has the children share
# its place in the tree gives it, and perf script shows spin_x called by branch_a.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp # perf's build-id cache stays out of this user's
fail() { echo "FAIL: $*" >&2; exit 1; }
data=$tmp/own.data
"$PMUSCOPE" record --call-graph dwarf -e cpu-clock -c 100000 -o "$data" -- "$PMS_WORKLOADS/calltree_nofp" \
    >/dev/null 2>"$tmp/record.err" || fail "record --call-graph dwarf: $(cat "$tmp/record.err")"
perf evlist -v -i "$data" > "$tmp/evlist.txt" 2>&1
for want in 'CALLCHAIN' 'REGS_USER' 'STACK_USER' 'exclude_callchain_user: 1' 'sample_stack_user: 8192' \
            'mmap_data: 1'; do
    grep -q "$want" "$tmp/evlist.txt" || fail "no '$want' in the attr: $(cat "$tmp/evlist.txt")"
done
if [ "$(uname -m)" = x86_64 ]; then
    grep -q 'sample_regs_user: 0xff0fff' "$tmp/evlist.txt" || fail "not perf's x86_64 registers: $(cat "$tmp/evlist.txt")"
fi

# perf unwinds the stack copies: a sample in spin_x has branch_a as its caller
perf script -i "$data" -F comm,ip,sym > "$tmp/script.txt" 2>"$tmp/script.err" || fail "perf script: $(cat "$tmp/script.err")"
awk '/^calltree/{getline leaf; getline caller; if (leaf ~ / spin_x$/ && caller ~ / branch_a$/) n++} END{exit !(n > 0)}' \
    "$tmp/script.txt" || fail "no chain spin_x <- branch_a in perf script"

# perf report --children: each function of the tree gets its callees' samples. Shares by
# the work each does (branch_a 50%, recurse 30%, ...) hold at any sample count only
# roughly; what holds exactly is that a caller's children cover its callees' self samples.
perf report -i "$data" --children --stdio -g none --no-inline --sort sym --percent-limit 0 2>/dev/null \
    > "$tmp/report.txt" || fail "perf report --children"
share() { awk -v f="$1" -v col="$2" '$NF == f && $(NF-1) == "[.]" {gsub("%", "", $col); print $col; exit}' "$tmp/report.txt"; }
for f in main branch_a branch_b recurse spin_x spin_y spin_z; do
    [ -n "$(share "$f" 1)" ] || fail "perf report shows no $f: $(head -40 "$tmp/report.txt")"
done
awk -v a="$(share branch_a 1)" -v x="$(share spin_x 2)" -v m="$(share main 1)" -v z="$(share spin_z 2)" \
    -v r="$(share recurse 1)" 'BEGIN{exit !(a + 0.02 >= x && a > 5 && m > 90 && r + 0.02 >= z && r > 5)}' ||
    fail "perf report --children does not unwind the tree: $(head -30 "$tmp/report.txt")"

# SIZE: rounded up to 8 bytes as perf does; 0 and more than 65528 refused
"$PMUSCOPE" record --call-graph dwarf,100 -e cpu-clock -o "$tmp/small.data" -- true >/dev/null 2>&1 ||
    fail "--call-graph dwarf,100 refused"
perf evlist -v -i "$tmp/small.data" > "$tmp/evlist.txt" 2>&1
grep -q 'sample_stack_user: 104' "$tmp/evlist.txt" || fail "dwarf,100 is not 104 bytes: $(cat "$tmp/evlist.txt")"
for bad in dwarf,0 dwarf,70000 dwarf,x dwarfish; do
    rc=0
    "$PMUSCOPE" record --call-graph "$bad" -o "$tmp/x.data" -- true >/dev/null 2>"$tmp/err" || rc=$?
    [ "$rc" -eq 2 ] && grep -q "call-graph" "$tmp/err" || fail "--call-graph $bad: exit $rc, $(cat "$tmp/err")"
done
echo "record_callgraph_dwarf: ok"
