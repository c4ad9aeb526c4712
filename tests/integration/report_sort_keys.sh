#!/bin/bash
# pmuscope report --sort comm, pid, comm,dso and pid,sym against perf report --sort with the
# same keys, on a multi-process, multi-thread run (sh running the threads workload with three
# threads, then the loop workload) recorded by perf and by pmuscope: every row over 0.5% in
# either table within 0.1 percentage point (shares of period, perf's overhead). The pid key
# is per thread, printed TID:comm as perf prints it; the tables must hold the three threads'
# own rows and the two commands, so a key that merged threads or processes fails.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp # perf's build-id cache stays out of it
run="$PMS_WORKLOADS/threads 3 60000000; $PMS_WORKLOADS/loop 60000000"
perf record -q -e cpu-clock -F 2000 -o "$tmp/perf.data" -- sh -c "$run" >/dev/null 2>&1
"$PMUSCOPE" record -e cpu-clock -F 2000 -o "$tmp/ours.data" -- sh -c "$run" >/dev/null 2>&1

python3 - "$PMUSCOPE" "$tmp" "$(dirname "$0")" <<'PY'
import os, sys
pmuscope, tmp, here = sys.argv[1:4]
sys.path.insert(0, here)
from sort_keys import perf_table, our_table
TOLERANCE, THRESHOLD = 0.1, 0.5
failed = []

for label in ("perf.data", "ours.data"):
    path = os.path.join(tmp, label)
    for sort in ("comm", "pid", "comm,dso", "pid,sym"):
        theirs, mine = perf_table(path, sort), our_table(pmuscope, path, sort)
        if not theirs:
            failed.append("%s --sort %s: perf printed no rows" % (label, sort))
        for key in sorted(set(theirs) | set(mine)):
            a, b = mine.get(key, 0.0), theirs.get(key, 0.0)
            if max(a, b) > THRESHOLD and abs(a - b) > TOLERANCE + 0.005:  # perf prints 2 decimals
                failed.append("%s --sort %s: %s: pmuscope %.2f%% perf %.2f%%" % (label, sort, key, a, b))
        big = {k for k, v in mine.items() if v > 5}
        if sort == "comm" and not {("threads",), ("loop",)} <= big:
            failed.append("%s --sort comm: no large rows for threads and loop: %s" % (label, mine))
        if sort == "pid" and len([k for k in big if k[0].endswith(":threads")]) < 3:
            failed.append("%s --sort pid: fewer than three threads of `threads` over 5%%: %s" % (label, mine))
        print("%s --sort %s: %d rows agree with perf" % (label, sort, len(mine)))
if failed:
    print("FAIL:\n  " + "\n  ".join(failed[:20]))
    sys.exit(1)
print("report_sort_keys: ok")
PY
