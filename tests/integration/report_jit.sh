#!/bin/bash
# JIT code: perf names samples in an anonymous executable mapping "[JIT] tid PID" and their
# functions from /tmp/perf-PID.map when the process wrote one (perf's JIT interface). The
# jit workload copies two loops into such a mapping, names them in its perf map and runs
# jit_spin_a twice as long as jit_spin_b. On a perf record and a pmuscope record of it,
# pmuscope report --sort dso,sym and --sort dso give perf report's rows: every row over
# 0.5% within 0.1 percentage point, every [JIT] row perf's (the functions named, over 90%
# of the samples there); and again once the map files are gone, when both name the JIT's
# samples by their addresses.
set -euo pipefail
tmp=$(mktemp -d)
maps=()
cleanup() { rm -rf "$tmp" "${maps[@]}"; }
trap cleanup EXIT
export HOME=$tmp # perf's build-id cache stays out of it
fail() { echo "FAIL: $*" >&2; exit 1; }
perf record -q -e cpu-clock -c 100000 -o "$tmp/perf.data" -- "$PMS_WORKLOADS/jit" >"$tmp/perf.out" 2>/dev/null ||
    fail "perf record"
maps+=("$(cat "$tmp/perf.out")")
"$PMUSCOPE" record -e cpu-clock -c 100000 -o "$tmp/ours.data" -- "$PMS_WORKLOADS/jit" >"$tmp/ours.out" 2>/dev/null ||
    fail "pmuscope record"
maps+=("$(cat "$tmp/ours.out")")
for m in "${maps[@]}"; do [[ $m == /tmp/perf-*.map && -f $m ]] || fail "the workload wrote no perf map: '$m'"; done

compare() { # named|addresses
    python3 - "$PMUSCOPE" "$tmp" "$(dirname "$0")" "$1" <<'PY'
import os, re, sys
pmuscope, tmp, here, mode = sys.argv[1:5]
sys.path.insert(0, here)
from sort_keys import perf_table, our_table
failed = []
for name in ("perf.data", "ours.data"):
    path = os.path.join(tmp, name)
    for sort in ("dso,sym", "dso"):
        theirs, mine = perf_table(path, sort), our_table(pmuscope, path, sort)
        jit = {k: v for k, v in theirs.items() if k[0].startswith("[JIT] tid ")}
        if sum(jit.values()) < 50:
            failed.append("%s: perf report puts only %.2f%% in [JIT] rows: %s" % (name, sum(jit.values()), theirs))
        if sort == "dso,sym":
            named = sum(v for k, v in jit.items() if k[1] in ("jit_spin_a", "jit_spin_b"))
            if mode == "named" and named < 0.9 * sum(jit.values()):
                failed.append("%s: perf names only %.2f%% of the JIT's samples: %s" % (name, named, jit))
            if mode == "addresses" and named:
                failed.append("%s: perf names JIT functions without a perf map: %s" % (name, jit))
        for key in sorted(set(theirs) | set(mine)):
            a, b = mine.get(key, 0), theirs.get(key, 0)
            if (key[0].startswith("[JIT]") and abs(a - b) > 0.006) or (max(a, b) > 0.5 and abs(a - b) > 0.1):
                failed.append("%s --sort %s: %s: pmuscope %.2f%% perf %.2f%%" % (name, sort, key, a, b))
        print("%s --sort %s: %s" % (name, sort, ", ".join("%s %.2f%%" % (" ".join(k), v)
                                                        for k, v in sorted(jit.items(), key=lambda kv: -kv[1])[:3])))
if failed:
    print("FAIL (%s):\n  " % mode + "\n  ".join(failed[:20]))
    sys.exit(1)
PY
}
compare named
rm -f "${maps[@]}"
compare addresses

# A FIFO planted under a map file's name (anyone may create one in /tmp) neither blocks the
# report nor names anything: the JIT's rows keep their addresses.
mkfifo "${maps[1]}"
timeout 120 "$PMUSCOPE" report -i "$tmp/ours.data" --sort dso,sym --csv --limit 0 >"$tmp/fifo.csv" ||
    fail "report with a FIFO as the perf map: exit $?"
grep -q '^\[JIT\] tid' <(cut -d, -f2- "$tmp/fifo.csv") || fail "no [JIT] rows with a FIFO as the perf map"
echo "report_jit: ok"
