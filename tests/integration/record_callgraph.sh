#!/bin/bash
# pmuscope record -g: frame-pointer callchains (PERF_SAMPLE_CALLCHAIN) that perf reads.
# On the calltree workload (built with frame pointers): perf script shows every sample with
# its chain (as many samples as pmuscope counts, the call tree's frames in them), and perf
# report --children on the file agrees with pmuscope report --children on it, Children and
# Self within 0.1 percentage point for every row over 1%. Without -g no chain is written.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp # perf's build-id cache stays out of this user's
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/csv.sh" # plain_csv
data=$tmp/own.data
"$PMUSCOPE" record -g -e cpu-clock -c 100000 -o "$data" -- "$PMS_WORKLOADS/calltree" >/dev/null 2>"$tmp/record.err" ||
    fail "record -g: $(cat "$tmp/record.err")"
perf evlist -v -i "$data" > "$tmp/evlist.txt" 2>&1
grep -q 'CALLCHAIN' "$tmp/evlist.txt" || fail "no PERF_SAMPLE_CALLCHAIN in the attr: $(cat "$tmp/evlist.txt")"

# perf script: one block per sample (a header line, then one line per chain entry)
perf script -i "$data" -F comm,ip,sym > "$tmp/script.txt" 2>"$tmp/script.err" || fail "perf script: $(cat "$tmp/script.err")"
theirs=$(grep -c '^calltree' "$tmp/script.txt" || true)
# (a real CSV reader: under ASan the recording holds ASan's C++ functions, commas in their names)
"$PMUSCOPE" report -i "$data" --no-children --csv --limit 0 | plain_csv > "$tmp/flat.csv"
ours=$(awk -F, 'NR>1{s+=$7} END{print s}' "$tmp/flat.csv")
[ "$theirs" -gt 0 ] && [ "$theirs" -eq "$ours" ] || fail "perf script shows $theirs samples, pmuscope counts $ours"
for f in main branch_a branch_b recurse spin_x spin_y spin_z; do
    grep -q " $f\$" "$tmp/script.txt" || fail "perf script shows no frame of $f"
done
# a sample in spin_x has branch_a as its caller, in the next line
awk '/^calltree/{getline leaf; getline caller; if (leaf ~ / spin_x$/ && caller ~ / branch_a$/) n++} END{exit !(n > 0)}' \
    "$tmp/script.txt" || fail "no chain spin_x <- branch_a in perf script"

python3 - "$PMUSCOPE" "$data" "$(dirname "$0")" <<'PY'
import sys
pmuscope, data, here = sys.argv[1:4]
sys.path.insert(0, here)
from sort_keys import children_problems
problems = children_problems(pmuscope, data, "dso,sym", 1.0, 0.1) + children_problems(pmuscope, data, "dso", 1.0, 0.1)
if problems:
    print("FAIL: pmuscope report and perf report --children differ on pmuscope's file:\n  " + "\n  ".join(problems[:20]))
    sys.exit(1)
PY

"$PMUSCOPE" record -e cpu-clock -c 100000 -o "$tmp/flat.data" -- "$PMS_WORKLOADS/calltree" >/dev/null 2>&1
perf evlist -v -i "$tmp/flat.data" > "$tmp/evlist.txt" 2>&1
if grep -q 'CALLCHAIN' "$tmp/evlist.txt"; then fail "record without -g wrote callchains"; fi
"$PMUSCOPE" report -i "$tmp/flat.data" > "$tmp/flat.txt"
if grep -q '^children' "$tmp/flat.txt"; then fail "a file without callchains gets a children column"; fi
"$PMUSCOPE" record --call-graph lbr -o "$tmp/x.data" -- true 2>"$tmp/err" && fail "--call-graph lbr accepted"
grep -q "call-graph" "$tmp/err" || fail "--call-graph lbr: $(cat "$tmp/err")"
echo "record_callgraph: ok ($ours samples)"
