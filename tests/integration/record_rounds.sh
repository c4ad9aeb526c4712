#!/bin/bash
# pmuscope record writes a FINISHED_ROUND after each drain of its per-CPU buffers that
# wrote something, as perf record does: perf's reader (perf script, perf report) and
# pmuscope's then order the file a round at a time. On a two-thread workload with 1-page
# buffers (many drains): perf report -D sees the rounds, perf script and perf report read
# the file, perf script's sample order equals the reader's (docs/examples/perf_samples.c),
# the rounds cost under 1% of the data, and a sample is 48 bytes (no PERF_SAMPLE_ID beside
# PERF_SAMPLE_IDENTIFIER). The size against perf record's on the same command and period
# is printed (bytes per sample), not asserted.
# ctest-labels: serial
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp PAGER=cat
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$tmp"
"$PMUSCOPE" record -e cpu-clock -c 20000 -m 1 -o ours.data -- "$PMS_WORKLOADS/threads" 2 40000000 > rec.out 2>&1 \
    || { cat rec.out; fail "pmuscope record"; }
perf record -q -e cpu-clock -c 20000 -o perfs.data "$PMS_WORKLOADS/threads" 2 40000000 > /dev/null 2>&1 \
    || fail "perf record"

perf report -i ours.data -D > dump.txt 2> dump.err || { cat dump.err; fail "perf report -D cannot read our file"; }
rounds=$(grep -c 'PERF_RECORD_FINISHED_ROUND' dump.txt || true)
samples=$(grep -c 'PERF_RECORD_SAMPLE' dump.txt || true)
echo "$samples samples, $rounds rounds"
[ "$samples" -gt 100 ] || fail "only $samples samples"
[ "$rounds" -ge 2 ] || fail "$rounds FINISHED_ROUND records in $(cat rec.out)"
# Every sample 48 bytes: [0x30] in perf's dump.
other=$(grep 'PERF_RECORD_SAMPLE' dump.txt | grep -vc '\[0x30\]' || true)
[ "$other" -eq 0 ] || fail "$other samples are not 48 bytes: $(grep -m1 PERF_RECORD_SAMPLE dump.txt)"
data=$(perf report -i ours.data --header-only 2>/dev/null | sed -n 's/^# data size *: *\([0-9]*\).*/\1/p' || true)
[ -n "$data" ] && [ $((rounds * 8 * 100)) -lt "$data" ] || fail "$rounds rounds are 1% or more of $data data bytes"

perf report -i ours.data --stdio --sort comm > report.txt 2> report.err || { cat report.err; fail "perf report"; }
grep -q '% *threads' report.txt || { cat report.txt; fail "perf report shows no threads row"; }

perf script -i ours.data -F tid,time,ip --ns 2> /dev/null | awk '{sub(":", "", $2); sub("\\.", "", $2); print $1, $2+0, $3}' > perf.txt
"$PMS_BUILD_DIR/tests/example_perf_samples" ours.data 2> /dev/null | awk '{print $1, $2+0, $3}' > ours.txt
[ "$(wc -l < ours.txt)" -eq "$samples" ] || fail "the reader gives $(wc -l < ours.txt) samples, perf's dump $samples"
cmp -s perf.txt ours.txt || { diff perf.txt ours.txt | head; fail "perf script's order differs from the reader's"; }

theirs=$(perf script -i perfs.data -F ip 2> /dev/null | wc -l)
ours_size=$(stat -c %s ours.data)
perf_size=$(stat -c %s perfs.data)
awk -v a="$ours_size" -v n="$samples" -v b="$perf_size" -v m="$theirs" 'BEGIN {
    printf "pmuscope %d bytes for %d samples (%.1f B/sample); perf %d bytes for %d samples (%.1f B/sample); ratio %.2f\n",
           a, n, a / n, b, m, b / m, (a / n) / (b / m) }'
