#!/bin/bash
# report on --call-graph dwarf files: the user stack copies unwound with libdwfl agree with
# perf report's unwinding of the same file. calltree_nofp (the calltree workload at -O2
# without frame pointers) recorded by perf record --call-graph dwarf and by pmuscope record
# --call-graph dwarf; on each file pmuscope report --children against perf report
# --children (Children and Self within 0.1 percentage point for every row over 1%, by
# dso,sym and by dso), and the call paths of -g against perf report -g folded's (every path
# over 1%). The same on vdso_calls, whose samples are mostly in the vDSO and PLT entries.
# perf runs with --no-inline: pmuscope does not add inlined frames. Also: with frame
# pointers (record -g) the same program's tree cannot be walked, with dwarf it is.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp # perf's build-id cache stays out of this user's
fail() { echo "FAIL: $*" >&2; exit 1; }
prog=$PMS_WORKLOADS/calltree_nofp
perf record -q --call-graph dwarf -e cpu-clock -c 100000 -o "$tmp/perf.data" -- "$prog" >/dev/null 2>&1 ||
    fail "perf record --call-graph dwarf"
"$PMUSCOPE" record --call-graph dwarf -e cpu-clock -c 100000 -o "$tmp/own.data" -- "$prog" >/dev/null \
    2>"$tmp/record.err" || fail "pmuscope record --call-graph dwarf: $(cat "$tmp/record.err")"
"$PMUSCOPE" record -g -e cpu-clock -c 100000 -o "$tmp/fp.data" -- "$prog" >/dev/null 2>&1 || fail "record -g"
# vdso_calls: most samples in the vDSO, unwound through its CFI (the running kernel's image)
# and through PLT entries (whose CFA is an expression of the IP)
perf record -q --call-graph dwarf -e cpu-clock -c 100000 -o "$tmp/perf-vdso.data" -- "$PMS_WORKLOADS/vdso_calls" \
    >/dev/null 2>&1 || fail "perf record --call-graph dwarf vdso_calls"
"$PMUSCOPE" record --call-graph dwarf -e cpu-clock -c 100000 -o "$tmp/own-vdso.data" -- "$PMS_WORKLOADS/vdso_calls" \
    >/dev/null 2>&1 || fail "pmuscope record --call-graph dwarf vdso_calls"

python3 - "$PMUSCOPE" "$tmp" "$(dirname "$0")" <<'PY'
import csv, io, subprocess, sys
pmuscope, tmp, here = sys.argv[1:4]
sys.path.insert(0, here)
from sort_keys import children_problems, path_problems

def children(path):
    out = subprocess.run([pmuscope, "report", "-i", path, "--children", "--csv", "--limit", "0"],
                         capture_output=True, text=True, check=True).stdout
    return {r["function"]: float(r["children_share"]) for r in csv.DictReader(io.StringIO(out))}

problems = []
for name in ("perf.data", "own.data", "perf-vdso.data", "own-vdso.data"):
    data = tmp + "/" + name
    for sort in ("dso,sym", "dso"):
        # vdso_calls: where the stack copy ends, perf and libdwfl give up at different
        # frames (fresh-clone CI under ASan: [unknown] children 1.88% against 1.76%)
        problems += ["%s: %s" % (name, p) for p in children_problems(pmuscope, data, sort, 1.0, 0.1,
                                                                      extra=("--no-inline",),
                                                                      unknown_children="vdso" not in name)]
    paths, compared = path_problems(pmuscope, data, 1.0, 0.1, extra=("--no-inline",))
    problems += ["%s: %s" % (name, p) for p in paths]
    if compared < (2 if "vdso" in name else 4): # vdso_calls has two paths, calltree_nofp four
        problems.append("%s: -g: only %d call paths over 1%% compared" % (name, compared))
    c = children(data)
    if "vdso" in name:
        if c.get("main", 0) < 0.9:
            problems.append("%s: main has %.3f of the samples below it" % (name, c.get("main", 0)))
        continue
    # the tree unwinds: every caller gets its callees' samples (a share that holds at any count)
    for f in ("main", "branch_a", "branch_b", "recurse"):
        if c.get(f, 0) < 0.05:
            problems.append("%s: %s has no children share (%s)" % (name, f, c.get(f)))
    if c.get("main", 0) < 0.9:
        problems.append("%s: main has %.3f of the samples below it" % (name, c.get("main", 0)))
# with frame pointers the callers of the spinning functions are lost: no path reaches main
fp = children(tmp + "/fp.data")
if fp.get("main", 0) > 0.5:
    problems.append("fp.data: frame pointers walked the -O2 tree (main %.3f): the test proves nothing" % fp["main"])
if problems:
    print("FAIL: pmuscope report and perf report differ on --call-graph dwarf files:\n  " + "\n  ".join(problems[:30]))
    sys.exit(1)
PY
echo "report_callgraph_dwarf: ok"
