#!/bin/bash
# perf's pipe format both ways. `pmuscope record -o -` writes it to the standard output:
# perf script -i - and perf report -i - read it, perf script's samples (tid, time, ip, in
# order) are the reader's, and `pmuscope report -i -` on the stream equals `report -i FILE`
# on the same bytes. `perf record -o -` piped into `pmuscope report -i - --sort dso` agrees
# with perf report on that stream within 0.1 point a row. Input that is not perf.data on
# stdin is refused naming stdin. (The corpus's pipe-mode files: integration/report_corpus.)
# ctest-labels: serial
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp PAGER=cat
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$tmp"
samples=$PMS_BUILD_DIR/tests/example_perf_samples

"$PMUSCOPE" record -e cpu-clock -c 20000 -o - -- "$PMS_WORKLOADS/threads" 2 30000000 > ours.pipe 2> rec.err \
    || { cat rec.err; fail "pmuscope record -o -"; }
grep -q 'to the standard output (pipe format)' rec.err || fail "no summary on stderr: $(cat rec.err)"
[ "$(head -c 8 ours.pipe)" = "PERFILE2" ] || fail "no perf.data magic"
[ "$(od -An -tu8 -j8 -N8 ours.pipe | tr -d ' ')" = 16 ] || fail "header size is not 16 (pipe format)"
perf script -i - -F tid,time,ip --ns < ours.pipe 2> script.err | awk '{sub(":", "", $2); sub("\\.", "", $2); print $1, $2+0, $3}' > perf.txt
n=$(wc -l < perf.txt)
[ "$n" -gt 100 ] || { cat script.err; fail "perf script -i - reads $n samples"; }
"$samples" ours.pipe 2> /dev/null | awk '{print $1, $2+0, $3}' > ours.txt
cmp -s perf.txt ours.txt || { diff perf.txt ours.txt | head; fail "perf script -i - and the reader differ"; }
perf report -i - --stdio --sort comm < ours.pipe > perf-report.txt 2> /dev/null || fail "perf report -i -"
grep -q '% *threads' perf-report.txt || { cat perf-report.txt; fail "perf report -i - shows no threads row"; }
cat ours.pipe | "$PMUSCOPE" report -i - --csv --limit 0 | sed 1d > from-pipe.csv
"$PMUSCOPE" report -i ours.pipe --csv --limit 0 | sed 1d > from-file.csv
[ -s from-pipe.csv ] && cmp -s from-pipe.csv from-file.csv || fail "report -i - differs from report -i FILE"
echo "pmuscope record -o -: $n samples, read alike by perf script, perf report and pmuscope"

perf record -q -e cpu-clock -c 50000 -o - "$PMS_WORKLOADS/hotspots" 2> /dev/null > perf.pipe || fail "perf record -o -"
perf report -i - --stdio --sort dso --percent-limit 0 < perf.pipe 2> /dev/null \
    | awk '/^ +[0-9.]+%/ {sub("%", "", $1); print $2, $1}' | sort > perf-dso.txt
cat perf.pipe | "$PMUSCOPE" report -i - --sort dso --weight period --csv --limit 0 \
    | python3 -c '
import csv, os, sys
t = {}
for row in csv.DictReader(sys.stdin):
    d = row["binary"] if row["binary"].startswith("[") else os.path.basename(row["binary"])
    t[d] = t.get(d, 0) + 100 * float(row["share"])
for d in sorted(t): print(d, "%.4f" % t[d])' > ours-dso.txt
python3 - perf-dso.txt ours-dso.txt <<'PY'
import sys
read = lambda f: {l.split()[0]: float(l.split()[1]) for l in open(f) if l.strip()}
perf, ours = read(sys.argv[1]), read(sys.argv[2])
assert perf, "perf report -i - gave no rows"
bad = [(d, ours.get(d, 0), perf.get(d, 0)) for d in set(perf) | set(ours)
       if max(ours.get(d, 0), perf.get(d, 0)) > 1 and abs(ours.get(d, 0) - perf.get(d, 0)) > 0.105]
for d, a, b in bad: print("FAIL %s: pmuscope %.2f%% perf %.2f%%" % (d, a, b))
print("perf record -o - | report -i -: %d rows agree with perf report -i -" % len(perf))
sys.exit(1 if bad else 0)
PY

# The summary and the recording cannot share the standard output.
if "$PMUSCOPE" record -o - --json -- true > out.txt 2> err.txt; then fail "-o - with --json accepted"; fi
grep -q 'give --json=FILE' err.txt || fail "-o - with --json: $(cat err.txt)"
if echo "not a perf.data file at all" | "$PMUSCOPE" report -i - > out.txt 2> err.txt; then fail "garbage on stdin accepted"; fi
grep -q '^pmuscope: stdin: ' err.txt || fail "the refusal does not name stdin: $(cat err.txt)"
echo "ok"
