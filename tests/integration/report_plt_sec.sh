#!/bin/bash
# PLT stubs of a binary linked for IBT (gcc -fcf-protection, ld -z ibtplt, as CET-enabled
# distributions build): the calls go through .plt.sec, whose entries objdump -d labels
# `fn@plt` (perf names them so from 6.4 on; perf 6.1 here prints their offsets). The names
# workload built that way and recorded by perf: every sample pmuscope report --sort ip puts
# in .plt.sec lies in an entry objdump labels and carries that label, and there are such
# samples (the workload calls labs, malloc, free and getppid through the PLT in loops).
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp # perf's build-id cache stays out of it
fail() { echo "FAIL: $*" >&2; exit 1; }
cc -O1 -g -fno-omit-frame-pointer -fno-inline -fno-builtin -fcf-protection=full -Wl,-z,ibtplt \
    -o "$tmp/names_ibt" "$PMS_SOURCE_DIR/workloads/names.c" || fail "cannot build the workload with -z ibtplt"
readelf -SW "$tmp/names_ibt" > "$tmp/sections"
grep -q ' \.plt\.sec ' "$tmp/sections" || fail "the linker made no .plt.sec"
objdump -d --section=.plt.sec "$tmp/names_ibt" > "$tmp/objdump"
perf record -q -e cpu-clock -c 20000 -o "$tmp/perf.data" "$tmp/names_ibt" 40 > /dev/null 2>&1 || fail "perf record"
"$PMUSCOPE" report -i "$tmp/perf.data" --sort ip --csv --limit 0 > "$tmp/ip.csv"

python3 - "$tmp" <<'PY'
import csv, re, sys
tmp = sys.argv[1]
sec = next(l.split() for l in open(tmp + "/sections") if " .plt.sec " in l)
i = sec.index(".plt.sec")
addr, off, size = (int(sec[i + k], 16) for k in (2, 3, 4))
labels = {int(m.group(1), 16) - addr + off: m.group(2)
          for m in re.finditer(r"^([0-9a-f]+) <(.*@plt)>:", open(tmp + "/objdump").read(), re.M)}
if not labels:
    sys.exit("FAIL: objdump labels no .plt.sec entry")
starts = sorted(labels)
entry = starts[1] - starts[0] if len(starts) > 1 else 16
failed, in_sec, names = [], 0, set()
for r in csv.DictReader(open(tmp + "/ip.csv")):
    if not r["binary"].endswith("/names_ibt") or not r["file_offset"]:
        continue
    fo = int(r["file_offset"], 16)
    if not off <= fo < off + size:
        continue
    in_sec += int(r["samples"])
    start = max((s for s in starts if s <= fo), default=None)
    want = labels[start] if start is not None and fo < start + entry else None
    names.add(r["function"])
    if r["function"] != want:
        failed.append("offset 0x%x: pmuscope names it %r, objdump's label is %r" % (fo, r["function"], want))
if not in_sec:
    failed.append("no samples in .plt.sec: the test checks nothing")
if failed:
    print("FAIL:\n  " + "\n  ".join(failed[:20]))
    sys.exit(1)
print("report_plt_sec: %d samples in .plt.sec, named as objdump labels them: %s" % (in_sec, ", ".join(sorted(names))))
PY
