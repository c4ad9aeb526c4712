#!/bin/bash
# Compressed perf.data (perf record -z: PERF_RECORD_COMPRESSED records of one zstd stream and
# the HEADER_COMPRESSED feature), both ways, against perf 6.1 on the same files:
#  - a perf record -z recording of the two-thread workload with 1-page buffers (many compressed
#    records, records split across them): pmuscope report --sort dso,sym gives perf report's
#    shares, and the reader hands over perf script's samples one for one in its order;
#  - pmuscope record -z: perf report names the compression, reads the same shares as pmuscope
#    and perf script the same number of samples;
#  - hostile inputs: a corrupted zstd payload, and a stream that ends inside a record, are
#    refused with a message naming the file and the compressed record's offset.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp # perf's build-id cache stays out of it
fail() { echo "FAIL: $*" >&2; exit 1; }
samples=$PMS_BUILD_DIR/tests/example_perf_samples

perf record -q -z -e cpu-clock -c 20000 -m 1 -o "$tmp/perf-z.data" "$PMS_WORKLOADS/threads" 2 40000000 >/dev/null 2>&1 ||
    fail "perf record -z"
"$PMUSCOPE" record --compression-level=3 -e cpu-clock -c 5000 -o "$tmp/ours-z.data" -- "$PMS_WORKLOADS/threads" 2 40000000 >/dev/null 2>&1 ||
    fail "pmuscope record -z"
"$PMUSCOPE" record -e cpu-clock -c 20000 -o "$tmp/plain.data" -- "$PMS_WORKLOADS/threads" 2 40000000 >/dev/null 2>&1 ||
    fail "pmuscope record"

python3 - "$PMUSCOPE" "$samples" "$tmp" "$(dirname "$0")" <<'PY'
import csv, io, os, re, struct, subprocess, sys
pmuscope, samples, tmp, here = sys.argv[1:5]
sys.path.insert(0, here)
from sort_keys import perf_table, our_table
TOLERANCE, THRESHOLD = 0.1, 0.5
failed = []
env = dict(os.environ, PAGER="cat")

def compressed_records(path):
    out = subprocess.run(["perf", "report", "-D", "-i", path], capture_output=True, text=True, env=env).stdout
    m = re.search(r"COMPRESSED events:\s+(\d+)", out)  # its statistics at the end
    return int(m.group(1)) if m else 0

def perf_samples(path):
    out = subprocess.run(["perf", "script", "-i", path, "-F", "tid,time,ip", "--ns"], capture_output=True, text=True,
                         env=env).stdout
    rows = []
    for line in out.splitlines():
        m = re.match(r"\s*(\d+)\s+(\d+)\.(\d{9}):\s+([0-9a-f]+)", line)
        if m:
            rows.append((int(m.group(1)), int(m.group(2)) * 10**9 + int(m.group(3)), int(m.group(4), 16)))
    return rows

def our_samples(path):
    out = subprocess.run([samples, path], capture_output=True, text=True, check=True).stdout
    return [(int(t), int(ts), int(ip, 16)) for t, ts, ip, _ in (l.split(" ", 3) for l in out.splitlines())]

for name, least in (("perf-z.data", 10), ("ours-z.data", 2)):
    path = os.path.join(tmp, name)
    n = compressed_records(path)
    if n < least:
        failed.append("%s: %d PERF_RECORD_COMPRESSED records by perf report -D, expected %d or more" % (name, n, least))
    theirs, mine = perf_table(path, "dso,sym"), our_table(pmuscope, path, "dso,sym")
    if sum(theirs.values()) < 99:
        failed.append("%s: perf report shows %.2f%% in all, not the whole file" % (name, sum(theirs.values())))
    for key in sorted(set(theirs) | set(mine)):
        a, b = mine.get(key, 0.0), theirs.get(key, 0.0)
        if max(a, b) > THRESHOLD and abs(a - b) > TOLERANCE + 0.005:  # perf prints 2 decimals
            failed.append("%s --sort dso,sym: %s: pmuscope %.2f%% perf %.2f%%" % (name, key, a, b))
    ps, us = perf_samples(path), our_samples(path)
    if not ps or ps != us:
        failed.append("%s: %d samples against perf script's %d, or in another order" % (name, len(us), len(ps)))
    print("%s: %d compressed records, %d samples, %d rows agree with perf" % (name, n, len(us), len(mine)))
header = subprocess.run(["perf", "report", "--header-only", "-i", os.path.join(tmp, "ours-z.data")],
                        capture_output=True, text=True, env=env).stdout
if "compressed : Zstd, level = 3" not in header:
    failed.append("perf report --header-only does not show pmuscope's compression: %s" % header[-400:])

# Hostile inputs, made from pmuscope's uncompressed recording: its data section becomes one
# COMPRESSED record (zstd's command-line tool makes the frame), features dropped.
def rebuild(name, payload):
    with open(os.path.join(tmp, "plain.data"), "rb") as f:
        img = bytearray(f.read())
    data_off, data_size = struct.unpack_from("<QQ", img, 40)
    rec = struct.pack("<IHH", 81, 0, 8 + len(payload)) + payload
    out = img[:data_off] + rec
    struct.pack_into("<Q", out, 48, len(rec))
    out[72:104] = bytes(32)  # no feature sections
    with open(os.path.join(tmp, name), "wb") as f:
        f.write(out)
    return data_off, img[data_off:data_off + data_size]

def zstd(raw):
    return subprocess.run(["zstd", "-q", "-c"], input=raw, capture_output=True, check=True).stdout

def refused(name, off, what):
    p = subprocess.run([pmuscope, "report", "-i", os.path.join(tmp, name)], capture_output=True, text=True)
    want = "%s: offset %d" % (os.path.join(tmp, name), off)
    if p.returncode != 1 or want not in p.stderr or what not in p.stderr:
        failed.append("%s: expected exit 1 and '%s ... %s', got %d: %s" % (name, want, what, p.returncode, p.stderr.strip()))
    else:
        print("%s refused: %s" % (name, p.stderr.strip()))

off, raw = rebuild("whole.data", b"")
rebuild("whole.data", zstd(raw))
whole = subprocess.run([pmuscope, "report", "-i", os.path.join(tmp, "whole.data"), "--csv"], capture_output=True, text=True)
if whole.returncode != 0:
    failed.append("a data section in one zstd frame: %s" % whole.stderr.strip())
rebuild("cut.data", zstd(raw[:len(raw) // 2 + 3]))
refused("cut.data", off, "compressed data ends inside a record")
frame = bytearray(zstd(raw))
frame[len(frame) // 2:len(frame) // 2 + 16] = bytes(16)
rebuild("corrupt.data", bytes(frame))
refused("corrupt.data", off, "zstd:")
if failed:
    print("FAIL:\n  " + "\n  ".join(failed[:20]))
    sys.exit(1)
print("perfdata_compressed: ok")
PY
