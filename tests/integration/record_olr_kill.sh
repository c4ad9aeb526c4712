#!/usr/bin/env bash
# record --olr killed with SIGKILL: the segment file was written as segments closed and made
# whole at each second's checkpoint, as the perf.data was, so both are readable after the
# kill. olr --decode says the file stopped at a checkpoint and decodes its samples; their x
# are exactly the first samples of the perf.data (read back by olr --samples), and each
# counter's values are within opt's bound of 4, but inside the chord of a segment still
# open at the checkpoint (its two ends exact). Before, the segment file was
# a 0-byte temporary file until the end, and a kill lost every segment.
# ctest-labels: serial
set -euo pipefail
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
P=$PMUSCOPE
fail() { echo "FAIL: $*"; exit 1; }
source "$PMS_SOURCE_DIR/tests/lib/processes.sh"

"$P" record -e cpu-clock -c 100000 --read page-faults,task-clock --olr=opt:4 -o "$tmp/k.data" \
    -- "$PMS_WORKLOADS/hotspots" --scale 200 >"$tmp/out" 2>"$tmp/err" &
pid=$!
# The segment file appears under its name at the first checkpoint that holds a sample; then
# one more checkpoint (the file grows), so that the kill comes between two.
until [ -s "$tmp/k.data.olr" ]; do
    kill -0 "$pid" 2>/dev/null || fail "record ended before its first checkpoint: $(cat "$tmp/err")"
    sleep 0.05
done
first=$(stat -c %s "$tmp/k.data.olr")
until [ "$(stat -c %s "$tmp/k.data.olr")" -gt "$first" ]; do
    kill -0 "$pid" 2>/dev/null || fail "record ended before its second checkpoint"
    sleep 0.05
done
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
pid=

"$P" olr --decode "$tmp/k.data.olr" -o "$tmp/decoded.csv" 2>"$tmp/warn" || fail "olr --decode: $(cat "$tmp/warn")"
grep -Eq "^pmuscope: warning: $tmp/k.data.olr: no end chunk: its writer stopped \(a recording killed\?\) after the checkpoint that ends at offset [0-9]+; the [0-9]+ samples up to it are decoded" "$tmp/warn" ||
    fail "no word of the stop: $(cat "$tmp/warn")"
"$P" olr --samples "$tmp/recorded.csv" "$tmp/k.data" >/dev/null || fail "the perf.data after the kill"
python3 - "$tmp/decoded.csv" "$tmp/recorded.csv" <<'PY'
import csv, sys
dec = list(csv.reader(open(sys.argv[1])))
rec = list(csv.reader(open(sys.argv[2])))
assert dec[0] == rec[0], (dec[0], rec[0])
n = len(dec) - 1
assert n >= 2 and n <= len(rec) - 1, (n, len(rec) - 1)
for i in range(1, n + 1):
    assert dec[i][0] == rec[i][0], f"sample {i}: x {dec[i][0]}, recorded {rec[i][0]}"
# opt:4: each counter's closed segments decode within 4 of the recorded values; the segment
# still open at the checkpoint is the chord of its first and last samples, exact at both
for j in range(1, len(dec[0])):
    off = [abs(int(dec[i][j]) - int(rec[i][j])) > 4 for i in range(1, n + 1)]
    chord = [i for i in range(1, n + 1) if off[i - 1]]
    assert not chord or chord[-1] < n, f"{dec[0][j]}: the last sample is off by more than 4"
    if chord:  # the rows off by more than 4 lie inside the chord, whose two ends are exact
        start = max(i for i in range(1, chord[0] + 1) if dec[i][j] == rec[i][j])
        for i in chord:
            assert start < i < n, f"{dec[0][j]}: sample {i} off by more than 4 outside the open segment's chord"
print(f"ok: {n} of the {len(rec) - 1} recorded samples decoded, x exact, within 4 but inside the open chords")
PY
echo "record_olr_kill: ok"
