#!/bin/bash
# Threads without a name: perf calls a thread that no COMM record named (and whose parent had
# no name to inherit) ":TID", one comm of its own per thread. pmuscope report does the same:
# on a perf record of the threads workload (three threads) whose COMM records were moved to a
# thread that has no samples, --sort comm, pid and comm,dso (CSV and text) have perf's rows,
# every row over 0.5% within 0.1 percentage point, and the three threads are three ":TID" rows.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp # perf's build-id cache stays out of it
perf record -q -e cpu-clock -F 2000 -o "$tmp/named.data" -- "$PMS_WORKLOADS/threads" 3 60000000 >/dev/null 2>&1

python3 - "$PMUSCOPE" "$tmp" "$(dirname "$0")" <<'PY'
import os, re, struct, subprocess, sys
pmuscope, tmp, here = sys.argv[1:4]
sys.path.insert(0, here)
from sort_keys import perf_table, our_table
TOLERANCE, THRESHOLD = 0.1, 0.5
failed = []

# The data section's COMM records (type 3) name thread 0x7ffffff0 instead: no sample's.
data = bytearray(open(os.path.join(tmp, "named.data"), "rb").read())
offset, size = struct.unpack_from("<QQ", data, 40)
at, moved = offset, 0
while at < offset + size:
    kind, _, length = struct.unpack_from("<IHH", data, at)
    if kind == 3:
        struct.pack_into("<II", data, at + 8, 0x7ffffff0, 0x7ffffff0)
        moved += 1
    at += length
if not moved:
    sys.exit("FAIL: perf record wrote no COMM record")
path = os.path.join(tmp, "unnamed.data")
open(path, "wb").write(data)

def our_text(sort):
    """{key: share} of the text table (one word per column)."""
    out = subprocess.run([pmuscope, "report", "-i", path, "--sort", sort, "--weight", "period", "--limit", "0"],
                         capture_output=True, text=True, check=True).stdout
    table = {}
    for m in (re.match(r"\s*([\d.]+)%\s+\[[^]]*\]\s+\d+\s+(.*?)\s*$", l) for l in out.splitlines()):
        if m:
            table[tuple(m.group(2).split())] = table.get(tuple(m.group(2).split()), 0) + float(m.group(1))
    return table

for sort in ("comm", "pid", "comm,dso"):
    theirs = perf_table(path, sort)
    for how, mine in (("csv", our_table(pmuscope, path, sort)), ("text", our_text(sort))):
        for key in sorted(set(theirs) | set(mine)):
            a, b = mine.get(key, 0.0), theirs.get(key, 0.0)
            if max(a, b) > THRESHOLD and abs(a - b) > TOLERANCE + 0.005:  # perf prints 2 decimals
                failed.append("--sort %s %s: %s: pmuscope %.2f%% perf %.2f%%" % (sort, how, key, a, b))
        unnamed = [k for k, v in mine.items() if v > 5 and re.match(r"(\d+:)?:\d+$", k[0])]
        if len(unnamed) < 3:
            failed.append("--sort %s %s: fewer than three unnamed threads over 5%%: %s" % (sort, how, mine))
    print("--sort %s: %d rows as perf: %s" % (sort, len(theirs), sorted(theirs)[:4]))
if failed:
    print("FAIL:\n  " + "\n  ".join(failed[:20]))
    sys.exit(1)
print("report_unnamed_threads: ok")
PY
