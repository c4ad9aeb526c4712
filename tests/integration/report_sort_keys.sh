#!/bin/bash
# pmuscope report --sort comm, pid, comm,dso and pid,sym against perf report --sort with the
# same keys, on a multi-process, multi-thread run (sh running the threads workload with three
# threads, then the loop workload) recorded by perf and by pmuscope: every row over 0.5% in
# either table within 0.1 percentage point (shares of period, perf's overhead). The pid key
# is per thread, printed TID:comm as perf prints it; the tables must hold the three threads'
# own rows and the two commands, so a key that merged threads or processes fails. The text
# table has its columns in the order the keys were given (dso,comm and comm,dso, sym,pid
# and pid,sym...), as perf report --sort K1,K2 --stdio: each row read in that order is perf's.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp # perf's build-id cache stays out of it
run="$PMS_WORKLOADS/threads 3 60000000; $PMS_WORKLOADS/loop 60000000"
perf record -q -e cpu-clock -F 2000 -o "$tmp/perf.data" -- sh -c "$run" >/dev/null 2>&1
"$PMUSCOPE" record -e cpu-clock -F 2000 -o "$tmp/ours.data" -- sh -c "$run" >/dev/null 2>&1

python3 - "$PMUSCOPE" "$tmp" "$(dirname "$0")" <<'PY'
import os, re, subprocess, sys
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
# The text table: its columns in the order the keys were given, as perf prints them (a row
# read in that order must be perf's row); sym without dso comes with its binary before it.
def our_text(path, sort):
    out = subprocess.run([pmuscope, "report", "-i", path, "--sort", sort, "--weight", "period", "--limit", "0"],
                         capture_output=True, text=True, check=True).stdout
    keys, table = sort.split(","), {}
    for line in out.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[[^]]*\]\s+\d+\s+(.*?)\s*$", line)
        if not m:
            continue
        cells = m.group(2).split()
        # a function's name may hold spaces (demangled C++, as ASan's runtime): the words
        # beyond one per cell are its own
        extra = len(cells) - len(keys) - (1 if "sym" in keys and "dso" not in keys else 0)
        if extra < 0 or (extra and "sym" not in keys):
            failed.append("--sort %s: a text row of %d cells: %s" % (sort, len(cells), line))
            continue
        row = []
        for k in keys:
            if k == "sym" and "dso" not in keys:
                cells.pop(0)  # the binary
            n = 1 + extra if k == "sym" else 1
            row.append(" ".join(cells[:n]))
            del cells[:n]
        table[tuple(row)] = table.get(tuple(row), 0) + float(m.group(1))
    return table

for label in ("perf.data", "ours.data"):
    path = os.path.join(tmp, label)
    for sort in ("dso,comm", "comm,dso", "sym,pid", "pid,sym", "dso,sym", "sym,dso", "pid,comm"):
        theirs, mine = perf_table(path, sort), our_text(path, sort)
        big = [k for k, v in mine.items() if v > 5]
        if not big:
            failed.append("%s --sort %s: no text row over 5%%" % (label, sort))
        for key in sorted(set(theirs) | set(mine)):
            a, b = mine.get(key, 0.0), theirs.get(key, 0.0)
            if max(a, b) > THRESHOLD and abs(a - b) > TOLERANCE + 0.005:
                failed.append("%s --sort %s text: %s: pmuscope %.2f%% perf %.2f%%" % (label, sort, key, a, b))
        print("%s --sort %s: the text's columns are perf's, in that order" % (label, sort))
if failed:
    print("FAIL:\n  " + "\n  ".join(failed[:20]))
    sys.exit(1)
print("report_sort_keys: ok")
PY
