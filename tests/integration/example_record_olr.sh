#!/usr/bin/env bash
# docs/examples/record_olr.c, built against the INSTALLED shared library with pkg-config as
# a user would: it records a bundled workload through pmuscope/record.h with the online
# line-segment fit as its tap (pmuscope/olr_live.h). Its perf.data is perf's to read (the
# same samples perf script counts), and its segments equal those `pmuscope olr` fits
# offline on that file.
# ctest-labels: serial
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/installed.sh"
install_prefix "$tmp/inst"
build_installed "$tmp/record_olr" "$PMS_SOURCE_DIR/docs/examples/record_olr.c"

cd "$tmp"
./record_olr -o rec.data -- "$PMS_WORKLOADS/sizes" 2 > out.txt 2> err.txt || { cat err.txt; fail "record_olr failed"; }
cat out.txt
n=$(sed -n 's/^\([0-9]*\) samples in rec.data.*/\1/p' out.txt)
[ -n "$n" ] && [ "$n" -gt 20 ] || fail "too few samples: $(cat out.txt)"
# perf script shows a group member only where its value changed: count the leader's lines
[ "$(perf script -i rec.data -F event 2>/dev/null | grep -c " cpu-clock:")" -eq "$n" ] || fail "perf script does not count $n samples"
grep -q '^the command exited with 0$' out.txt || fail "the command's exit is not reported"
grep -Eq '^olr: [0-9]+ samples of thread [0-9]+ fitted' out.txt || fail "no fit summary"
for c in page-faults context-switches; do
    grep -Eq "^olr $c: [1-9][0-9]* segments" out.txt || fail "no segments for $c"
done
[ -s rec.data.olr.csv ] || fail "no segments file"
# the live fit through the tap = the offline fit of the recorded file
"$PMUSCOPE" olr --csv=offline.csv rec.data > /dev/null
diff rec.data.olr.csv offline.csv > /dev/null || fail "the tap's segments differ from pmuscope olr on the file"
# a command that cannot run: a message naming it, exit 1, no files left
rc=0; ./record_olr -o bad.data -- /nonexistent/program > /dev/null 2> bad.err || rc=$?
[ "$rc" -eq 1 ] || fail "a command that cannot run: exit $rc"
grep -q 'record_olr: record: .*nonexistent' bad.err || fail "unclear message: $(cat bad.err)"
[ ! -e bad.data ] && [ ! -e bad.data.olr.csv ] || fail "files left after a failed start"
echo "ok: $n samples; segments equal pmuscope olr's"
