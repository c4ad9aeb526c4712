#!/bin/bash
# stat output formats read back: -I plain and CSV, --wide columns, -r mean and stddev, --json.
set -euo pipefail
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# -I 100 -x, : time,value,unit,event,run time,running %,metric value,metric unit, times increasing, page-faults summing up
"$PMUSCOPE" stat -I 100 -x, -o "$tmp/int.csv" -e task-clock,page-faults -- "$PMS_WORKLOADS/phases" --units 250 --repeat 6
"$PMUSCOPE" stat -x, -o "$tmp/tot.csv" -e page-faults -- "$PMS_WORKLOADS/phases" --units 250 --repeat 6
awk -F, 'NF != 8 { print "bad line: " $0; bad = 1 }
         $4 == "page-faults" { if ($1 + 0 <= last) { print "time not increasing"; bad = 1 } last = $1 + 0; n++; sum += $2 }
         END { if (n < 5) { print "only " n " intervals"; bad = 1 } print n " intervals, page-faults " sum > "/dev/stderr"; exit bad }' \
    "$tmp/int.csv" || fail "-I CSV"
sum=$(awk -F, '$4 == "page-faults" { s += $2 } END { print s }' "$tmp/int.csv")
tot=$(awk -F, '$3 == "page-faults" { print $1 }' "$tmp/tot.csv")
awk -v a="$sum" -v b="$tot" 'BEGIN { d = (a > b ? a - b : b - a) / b; exit !(d < 0.02) }' ||
    fail "intervals sum to $sum page-faults, a whole run counts $tot"

# -I plain: perf's header, then "time value [unit] event # metric"
"$PMUSCOPE" stat -I 100 -o "$tmp/int.txt" -e task-clock,page-faults -- "$PMS_WORKLOADS/phases" --units 250 --repeat 3
head -1 "$tmp/int.txt" | grep -q '^#           time             counts unit events$' || fail "plain -I header"
grep -Eq '^ +[0-9]+\.[0-9]{9} +[0-9]+\.[0-9]{2} msec task-clock +# +[0-9.]+ CPUs utilized' "$tmp/int.txt" ||
    fail "plain -I task-clock line"

# --wide: header time,<events as given>, one row per interval, numeric cells
"$PMUSCOPE" stat -I 100 --wide -o "$tmp/wide.csv" -e 'task-clock,{page-faults,cs}' -- "$PMS_WORKLOADS/phases" --units 250 --repeat 6
[ "$(head -1 "$tmp/wide.csv")" = "time,task-clock,page-faults,cs" ] || fail "wide header: $(head -1 "$tmp/wide.csv")"
rows=$(($(wc -l < "$tmp/wide.csv") - 1))
[ "$rows" -ge 5 ] || fail "wide: only $rows rows"
awk -F, 'NR > 1 && (NF != 4 || $1 !~ /^[0-9]+\.[0-9]+$/) { bad = 1 } END { exit bad }' "$tmp/wide.csv" || fail "wide rows"
# without -I: a single row for the whole run, on stdout
"$PMUSCOPE" stat --wide -e page-faults -- "$PMS_WORKLOADS/sizes" 1 > "$tmp/wide1.csv"
[ "$(wc -l < "$tmp/wide1.csv")" -eq 2 ] || fail "wide without -I should have one row"

# -r 5: perf's "(5 runs)" header and "( +- x% )"; -x adds the variance column after the event
"$PMUSCOPE" stat -r 5 -o "$tmp/rep.txt" -e task-clock,page-faults -- "$PMS_WORKLOADS/sizes" 1
grep -q "Performance counter stats for '$PMS_WORKLOADS/sizes 1' (5 runs):" "$tmp/rep.txt" || fail "-r header"
grep -Eq 'page-faults .*\( \+- +[0-9]+\.[0-9]{2}% \)' "$tmp/rep.txt" || fail "-r stddev"
grep -Eq 'seconds time elapsed  \( \+- ' "$tmp/rep.txt" || fail "-r elapsed stddev"
"$PMUSCOPE" stat -r 5 -x';' -o "$tmp/rep.csv" -e page-faults -- "$PMS_WORKLOADS/sizes" 1
awk -F';' '$3 == "page-faults" && $4 ~ /^[0-9]+\.[0-9][0-9]%$/ && NF == 8 { ok = 1 } END { exit !ok }' "$tmp/rep.csv" ||
    fail "-r -x variance column: $(cat "$tmp/rep.csv")"

# --json: a document with the counts
"$PMUSCOPE" stat --json -e task-clock,page-faults -- "$PMS_WORKLOADS/sizes" 1 > "$tmp/out.json"
python3 - "$tmp/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = {e["event"]: e for e in d["counts"]}
assert c["page-faults"]["value"] > 100 and c["page-faults"]["state"] == "counted", d
assert c["task-clock"]["unit"] == "msec" and d["elapsed_s"] > 0, d
PY
# -r 4 --json -o FILE keeps every run's values (pmuscope diff reads them): their mean is the
# value, and an event this machine cannot count has null for each run
"$PMUSCOPE" stat -r 4 --json -o "$tmp/runs.json" -e task-clock,page-faults,r1234 -- "$PMS_WORKLOADS/sizes" 1 2>/dev/null
python3 - "$tmp/runs.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["runs"] == 4 and len(d["run_elapsed_s"]) == 4, d
assert abs(sum(d["run_elapsed_s"]) / 4 - d["elapsed_s"]) <= 1e-9 * d["elapsed_s"], d
for e in d["counts"]:
    runs = e["run_values"]
    assert len(runs) == 4, e
    if e["state"] == "counted":
        assert all(v > 0 for v in runs) and abs(sum(runs) / 4 - e["value"]) <= 1e-9 * e["value"], e
    else:
        assert runs == [None] * 4 and e["value"] is None, e
PY

# usage errors exit 2, with --help exit 0
"$PMUSCOPE" stat --help > /dev/null
set +e
"$PMUSCOPE" stat -e task-clock 2>/dev/null; [ $? -eq 2 ] || fail "no command should be a usage error"
"$PMUSCOPE" stat -I 5 -e task-clock -- true 2>/dev/null; [ $? -eq 2 ] || fail "-I 5 should be a usage error"
"$PMUSCOPE" stat -e 'task-clock,{page-faults' -- true 2> "$tmp/err"; rc=$?
set -e
[ $rc -eq 1 ] && grep -q "missing '}'" "$tmp/err" || fail "bad group: rc $rc: $(cat "$tmp/err")"
echo ok
