#!/bin/bash
# report on counters read at every sample (PERF_SAMPLE_READ groups): perf report counts such a
# sample once for every counter of the group that advanced since its previous read, weighted
# by that increment, under the counter's own event (the sampling event included). pmuscope
# report does the same: on a perf record -e '{cpu-clock,page-faults}:S' file and on a pmuscope
# record --read page-faults,task-clock file, every event's sample count and total period
# equal perf report's exactly (its Samples and Period columns), and every row over 0.5% of
# --sort dso,sym --weight period is within 0.1 percentage point of perf's overhead.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp # perf's build-id cache stays out of it
fail() { echo "FAIL: $*" >&2; exit 1; }
perf record -q -e '{cpu-clock,page-faults}:S' -c 100000 -o "$tmp/perf.data" -- "$PMS_WORKLOADS/hotspots" >/dev/null 2>&1 ||
    fail "perf record of a group"
"$PMUSCOPE" record -e cpu-clock -c 100000 --read page-faults,task-clock -o "$tmp/ours.data" -- "$PMS_WORKLOADS/hotspots" \
    >/dev/null 2>&1 || fail "pmuscope record --read"

python3 - "$PMUSCOPE" "$tmp" "$(dirname "$0")" <<'PY'
import csv, io, os, re, subprocess, sys
pmuscope, tmp, here = sys.argv[1:4]
sys.path.insert(0, here)
from sort_keys import our_row
TOLERANCE, THRESHOLD = 0.1, 0.5
failed = []

def perf_tables(path):
    """{event: {(dso, sym): [samples, period]}} of perf report --no-group -F sample,period,dso,sym."""
    out = subprocess.run(["perf", "report", "-i", path, "--stdio", "--no-group", "-F", "sample,period,dso,sym"],
                         capture_output=True, text=True, env=dict(os.environ, PAGER="cat"), check=True).stdout
    tables, event = {}, None
    for line in out.splitlines():
        m = re.match(r"# Samples: .* of events? '(.*)'", line)
        if m:
            event = tables.setdefault(m.group(1), {})
            continue
        m = re.match(r"\s+(\d+)\s+(\d+)\s+(\S.*?)\s+\[.\] (.*?)\s*$", line)
        if m and event is not None:
            row = event.setdefault((m.group(3), m.group(4)), [0, 0])
            row[0] += int(m.group(1))
            row[1] += int(m.group(2))
    return tables

def our_tables(path, event):
    out = subprocess.run([pmuscope, "report", "-i", path, "-e", event, "--sort", "dso,sym", "--weight", "period", "--csv",
                          "--limit", "0"], capture_output=True, text=True, check=True).stdout
    table = {}
    for r in csv.DictReader(io.StringIO(out)):
        row = table.setdefault(our_row("dso,sym", r), [0, 0])
        row[0] += int(r["samples"])
        row[1] += int(r["period"])
    return table

for name, member in (("perf.data", "page-faults"), ("ours.data", "page-faults")):
    theirs = perf_tables(os.path.join(tmp, name))
    if member not in theirs or not theirs[member]:
        failed.append("%s: perf report shows no %s samples: %s" % (name, member, sorted(theirs)))
    for event, perf_rows in theirs.items():
        mine = our_tables(os.path.join(tmp, name), event)
        totals = [sum(r[i] for r in t.values()) for t in (mine, perf_rows) for i in (0, 1)]
        if totals[:2] != totals[2:]:
            failed.append("%s %s: pmuscope %d samples, period %d; perf %d samples, period %d" % (name, event, *totals))
            continue
        for key in sorted(set(perf_rows) | set(mine)):
            a, b = (100.0 * t.get(key, [0, 0])[1] / totals[1] for t in (mine, perf_rows))
            if max(a, b) > THRESHOLD and abs(a - b) > TOLERANCE:
                failed.append("%s %s: %s: pmuscope %.2f%% perf %.2f%%" % (name, event, key, a, b))
        print("%s %s: %d samples, period %d, %d rows as perf report" % (name, event, totals[0], totals[1], len(mine)))
if failed:
    print("FAIL:\n  " + "\n  ".join(failed[:20]))
    sys.exit(1)
print("report_read_values: ok")
PY
