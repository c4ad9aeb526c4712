#!/bin/bash
# vDSO symbols: perf report names a [vdso] sample's function (__vdso_clock_gettime) by reading
# its own process's vDSO when the build-id recorded for [vdso] is that vDSO's (or none was
# recorded), and keeps the address when the recorded build-id is another one. pmuscope report
# does the same: on a perf record and a pmuscope record of a workload calling clock_gettime and
# gettimeofday in a loop (cpu-clock samples, most of them in the vDSO), and on a copy of the
# pmuscope file whose [vdso] build-id was altered, every [vdso] row of --sort dso,sym is perf's
# row, with perf's share; every other row over 0.5% is within 0.1 percentage point.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp # perf's build-id cache stays out of it
fail() { echo "FAIL: $*" >&2; exit 1; }
perf record -q -e cpu-clock -c 50000 -o "$tmp/perf.data" -- "$PMS_WORKLOADS/vdso_calls" >/dev/null 2>&1 ||
    fail "perf record"
"$PMUSCOPE" record -e cpu-clock -c 50000 -o "$tmp/ours.data" -- "$PMS_WORKLOADS/vdso_calls" >/dev/null 2>&1 ||
    fail "pmuscope record"

python3 - "$PMUSCOPE" "$tmp" "$(dirname "$0")" <<'PY'
import os, re, subprocess, sys
pmuscope, tmp, here = sys.argv[1:4]
sys.path.insert(0, here)
from sort_keys import perf_table, our_table
failed = []

# The copy whose [vdso] build-id is not this vDSO's: one byte of the recorded id flipped.
ids = subprocess.run(["perf", "buildid-list", "-i", os.path.join(tmp, "ours.data")], capture_output=True, text=True,
                     check=True).stdout
vdso_id = [l.split()[0] for l in ids.splitlines() if l.split()[1:] == ["[vdso]"]]
if len(vdso_id) != 1:
    sys.exit("FAIL: pmuscope record wrote no [vdso] build-id: %r" % ids)
data = bytearray(open(os.path.join(tmp, "ours.data"), "rb").read())
at = data.find(bytes.fromhex(vdso_id[0]))
if at < 0 or data.find(bytes.fromhex(vdso_id[0]), at + 1) >= 0:
    sys.exit("FAIL: the [vdso] build-id is not once in ours.data")
data[at] ^= 0xff
open(os.path.join(tmp, "other.data"), "wb").write(data)

for name, named in (("perf.data", True), ("ours.data", True), ("other.data", False)):
    path = os.path.join(tmp, name)
    theirs, mine = perf_table(path, "dso,sym"), our_table(pmuscope, path, "dso,sym")
    vdso = {k: v for k, v in theirs.items() if k[0] == "[vdso]"}
    functions = [k[1] for k in vdso if not re.match(r"0x[0-9a-f]+$", k[1])]
    if sum(vdso.values()) < 50:
        failed.append("%s: perf report puts only %.2f%% in [vdso]" % (name, sum(vdso.values())))
    if named and not any(f.startswith("__vdso_") for f in functions):
        failed.append("%s: perf names no __vdso_ function: %s" % (name, sorted(vdso)))
    if not named and functions:
        failed.append("%s: perf names vDSO functions of another build-id: %s" % (name, functions))
    for key in sorted(set(theirs) | set(mine)):
        a, b = mine.get(key, 0), theirs.get(key, 0)
        if (key[0] == "[vdso]" and abs(a - b) > 0.006) or (max(a, b) > 0.5 and abs(a - b) > 0.1):
            failed.append("%s: %s: pmuscope %.2f%% perf %.2f%%" % (name, key, a, b))
    print("%s: [vdso] rows as perf report: %s" % (name, ", ".join("%s %.2f%%" % (k[1], v) for k, v in
                                                               sorted(vdso.items(), key=lambda kv: -kv[1])[:3])))
if failed:
    print("FAIL:\n  " + "\n  ".join(failed[:20]))
    sys.exit(1)
print("report_vdso: ok")
PY
