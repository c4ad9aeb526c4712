#!/usr/bin/env bash
# pmuscope record --olr: the regression while recording gives the same segments as
# pmuscope olr on the recorded file, whose samples equal perf's own reading of the raw
# group values (perf script -D, in time order, summed over the per-CPU groups);
# --olr-only keeps segments instead of samples; bad option combinations are usage errors.
# ctest-labels: serial
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }
rec() { "$PMUSCOPE" record -e cpu-clock -c 100000 --read page-faults,context-switches "$@" -- \
          "$PMS_WORKLOADS/sizes" 2 > /dev/null 2> summary.txt; }

rec --olr -o rec.data
grep -q "olr wm: .* samples of thread .* fitted" summary.txt || fail "summary: $(cat summary.txt)"
grep -Eq "olr: [0-9.]+ ms in the regression, [0-9.]+% of the [0-9.]+ s run" summary.txt ||
  fail "no time share: $(cat summary.txt)"
[ -s rec.data.olr ] || fail "no segment file"

# live = offline: the same segments (the live file also holds a checkpoint a second, version
# 5: it decodes to the same samples), and the same CSV rows
"$PMUSCOPE" olr --samples samples.csv --store offline.olr --csv=offline.csv rec.data > /dev/null
[ "$(od -An -tu1 -j6 -N1 rec.data.olr | tr -d ' ')" = 5 ] || fail "the live file is not version 5"
"$PMUSCOPE" olr --decode rec.data.olr > decoded.csv
"$PMUSCOPE" olr --decode offline.olr > decoded-offline.csv
cmp decoded.csv decoded-offline.csv > /dev/null || fail "record --olr and pmuscope olr --store decode differently"
[ "$(wc -l < decoded.csv)" = "$(wc -l < samples.csv)" ] && [ "$(cut -d, -f1 decoded.csv)" = "$(cut -d, -f1 samples.csv)" ] ||
  fail "the segment file does not decode to the samples' x"
rec --olr --olr-csv -o csv.data
"$PMUSCOPE" olr --csv=offline.csv csv.data > /dev/null
diff csv.data.olr.csv offline.csv > /dev/null || fail "record --olr --olr-csv and pmuscope olr --csv differ"
# the samples against perf's dump of the raw read values (3 values per group, leader first),
# of the first sample's thread (ASan's leak checker adds a thread at exit)
perf script -D -i rec.data 2>/dev/null | perl -ne '
  if (/PERF_RECORD_SAMPLE.*: \d+\/(\d+):/) { $first //= $1; $in = $1 == $first; $pos = 0; next }
  if ($in && /^\.{5} id ([0-9a-f]+), value ([0-9a-f]+)/) {
    no warnings; my ($id, $v) = ($1, hex $2);
    $g = $id if $pos == 0; $t[$pos] += $v - ($last{"$g,$pos"} // 0); $last{"$g,$pos"} = $v;
    if (++$pos == 3) { print join(",", @t), "\n"; $in = 0 } }' > perf.csv
[ "$(wc -l < perf.csv)" -gt 10 ] || fail "too few samples in perf's dump"
tail -n +2 samples.csv | diff - perf.csv > /dev/null || fail "samples differ from perf script -D"

# segments instead of samples, with opt's bound
rec --olr=opt:3 --olr-only --olr-output segs.olr -o only.data
[ -s segs.olr ] || fail "no segments with --olr-only"
"$PMUSCOPE" olr --decode segs.olr > /dev/null || fail "the --olr-only segments do not decode"
perf evlist -i only.data > /dev/null 2>&1 || fail "only.data is not a valid perf.data"
[ "$(perf script -i only.data 2>/dev/null | wc -l)" = 0 ] || fail "--olr-only kept samples"
grep "olr page-faults:" summary.txt | grep -Eq "max error [0-3](\.|,| )" || fail "opt bound: $(cat summary.txt)"

usage() { set +e; "$PMUSCOPE" record "$@" -- true > /dev/null 2>&1; local rc=$?; set -e; [ "$rc" = 2 ] || fail "$* gave $rc"; }
usage --olr
usage --olr=bogus --read page-faults
usage --olr-only --read page-faults
usage --olr-csv --read page-faults
echo "record --olr: ok"
