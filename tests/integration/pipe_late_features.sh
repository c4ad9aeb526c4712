#!/bin/bash
# Pipe-mode descriptions that come after the first records: perf record -o - sends its events'
# EVENT_UPDATE names after the synthesized tasks and maps. On perf's own stream of two events
# with its HEADER_FEATURE event descriptions taken out (so that only the late updates name
# the events), pmuscope report (from the file and through -i -) names the events as perf
# report does on the same stream, and counts the same samples per event as perf script.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp
fail() { echo "FAIL: $*" >&2; exit 1; }
perf record -q -e cpu-clock/period=100000/,page-faults/period=1/ -o - "$PMS_WORKLOADS/hotspots" > "$tmp/pipe.data" 2>/dev/null ||
    fail "perf record -o -"
python3 - "$tmp" <<'PY'
import struct, sys
tmp = sys.argv[1]
b = open(tmp + "/pipe.data", "rb").read()
out, pos, dropped, first_data, late_names = bytearray(b[:16]), 16, 0, None, 0
while pos + 8 <= len(b):
    t, _, s = struct.unpack_from("<IHH", b, pos)
    if s < 8:
        sys.exit("FAIL: record of size %d at %d in perf's stream" % (s, pos))
    if t < 64 and first_data is None:
        first_data = pos
    if t == 78 and first_data is not None and struct.unpack_from("<Q", b, pos + 8)[0] == 2:
        late_names += 1
    if t == 80 and struct.unpack_from("<Q", b, pos + 8)[0] == 12:  # HEADER_FEATURE EVENT_DESC
        dropped += 1
    else:
        out += b[pos:pos + s]
    pos += s
if dropped != 1 or late_names < 2:
    sys.exit("FAIL: expected one EVENT_DESC record and two late EVENT_UPDATE names, got %d and %d" % (dropped, late_names))
open(tmp + "/late.data", "wb").write(out)
PY
perf report -i "$tmp/late.data" --stdio 2>/dev/null | sed -n "s/^# Samples: .* of event '\(.*\)'/\1/p" | sort > "$tmp/perf-names"
perf script -i "$tmp/late.data" -F event 2>/dev/null | sed 's/: *$//; s/^ *//' | sort | uniq -c | awk '{print $2, $1}' > "$tmp/perf-counts"
[ "$(wc -l < "$tmp/perf-names")" -eq 2 ] || fail "perf names $(wc -l < "$tmp/perf-names") events, not 2"
for input in file stdin; do
    if [ $input = file ]; then "$PMUSCOPE" report -i "$tmp/late.data" --json --limit 0 > "$tmp/ours.json"
    else "$PMUSCOPE" report -i - --json --limit 0 < "$tmp/late.data" > "$tmp/ours.json"; fi
    python3 -c '
import json, sys
for ev in json.load(open(sys.argv[1]))["events"]:
    print(ev["event"], ev["samples"])' "$tmp/ours.json" | sort > "$tmp/ours-counts"
    cut -d' ' -f1 "$tmp/ours-counts" | diff - "$tmp/perf-names" || fail "$input: event names differ from perf report's"
    diff "$tmp/ours-counts" "$tmp/perf-counts" || fail "$input: samples per event differ from perf script's"
done
echo "pipe_late_features: $(tr '\n' ' ' < "$tmp/ours-counts")as perf"
