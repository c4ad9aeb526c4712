#!/usr/bin/env bash
# pmuscope diff on counts: `stat -r 10 --json` of workloads/sizes 1 and 2 (a bigger input:
# twice the pages, about twice the CPU time) reports page-faults and task-clock up (exit 3
# with --fail-on-change); every p-value, ratio and interval equals R's wilcox.test on the
# logarithms of the same runs' values (run_values), q-values R's p.adjust; too few runs are
# said to be too few; malformed files are named with the line and column.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v Rscript >/dev/null || fail "Rscript (r-base-core) is needed: scripts/install-deps.sh installs it"
cd "$tmp"
ref=$PMS_FIXTURES/diff/diff_reference.R
count() { out=$1; runs=$2; shift 2; "$PMUSCOPE" stat -r "$runs" --json -o "$out" -e task-clock,page-faults -- "$@" 2>/dev/null; }
count one.json 10 "$PMS_WORKLOADS/sizes" 1
count two.json 10 "$PMS_WORKLOADS/sizes" 2

rc=0; "$PMUSCOPE" diff one.json two.json --fail-on-change --csv > counts.csv || rc=$?
[ "$rc" -eq 3 ] || fail "sizes 1 against 2: exit $rc"
verdict() { awk -F, -v e="$1" '$1 == e { print $NF }' counts.csv; }
[ "$(verdict page-faults)" = up ] && [ "$(verdict task-clock)" = up ] ||
    fail "page-faults $(verdict page-faults), task-clock $(verdict task-clock): $(cat counts.csv)"
# twice the array: more page faults (under the sanitizers, whose shadow memory faults too,
# about 1.2 times; else about 1.9), and an interval around the ratio
awk -F, '$1 == "page-faults" { exit !($7 > 1.1 && $7 < 2.5 && $8 <= $7 && $9 >= $7 && $3 == 10 && $4 == 10) }' counts.csv ||
    fail "page-faults ratio: $(grep page-faults counts.csv)"

# R on the same runs: wilcox.test(log(new), log(base), conf.int = TRUE), p.adjust
jq -r --arg side base '.counts[] | .event as $e | .run_values[] | "\($e),\($side),\(.)"' one.json > values.csv
jq -r --arg side new '.counts[] | .event as $e | .run_values[] | "\($e),\($side),\(.)"' two.json >> values.csv
sed -i '1i event,side,value' values.csv
Rscript "$ref" counts counts.csv 0.05 values.csv || fail "counts differ from R"
awk -F, -v OFS=, '$1 == "task-clock" { $8 = $8 * 0.999 } 1' counts.csv > bad.csv
if Rscript "$ref" counts bad.csv 0.05 values.csv > /dev/null; then fail "a moved interval passes"; fi

# the text and JSON
"$PMUSCOPE" diff one.json two.json > counts.txt
grep -Eq '^ +[0-9.]+ +[0-9.]+ +[0-9.]+  \[[0-9.]+, [0-9.]+\] .* up +page-faults$' counts.txt ||
    fail "text: $(cat counts.txt)"
"$PMUSCOPE" diff one.json two.json --json > counts.json
jq -e '.kind == "counts" and .method == "rank-sum" and .base.runs == 10 and .new.runs == 10 and
       ([.rows[] | select(.event == "page-faults" and .exact != null and .verdict == "up")] | length) == 1' \
    counts.json > /dev/null || fail "JSON: $(cat counts.json)"

# three runs a side cannot reach p < 0.05: said, and nothing changes
count few1.json 3 "$PMS_WORKLOADS/sizes" 1
count few2.json 3 "$PMS_WORKLOADS/sizes" 2
rc=0; "$PMUSCOPE" diff few1.json few2.json --fail-on-change > few.txt || rc=$?
[ "$rc" -eq 0 ] && grep -q 'note: with 3 and 3 runs the rank sum test cannot give a p-value below 0.1' few.txt ||
    fail "3 runs a side: exit $rc, $(cat few.txt)"

# several files a side add up their runs
"$PMUSCOPE" diff --base few1.json --base one.json --new few2.json,two.json --json > more.json
jq -e '.base.runs == 13 and .new.runs == 13' more.json > /dev/null || fail "runs of two files a side"

# a file from before run_values: its mean is one run, with a note
jq 'del(.counts[].run_values)' one.json > old.json
"$PMUSCOPE" diff old.json two.json > old.txt
grep -q 'note: old.json has no run_values' old.txt || fail "old file: $(cat old.txt)"

# errors: exit 1, the file and where
printf '{"counts": [{"event": "x", "run_values": [1, 2,]}]}\n' > comma.json
printf '{"counts": [{"event": "x", "run_values": [1, "two"]}], "runs": 2}\n' > text.json
printf '{"counts": [{"event": "x", "run_values": [1, 2, 3]}], "runs": 2}\n' > short.json
printf '{"events": []}\n' > nocounts.json
head -c 200 one.json > cut.json
"$PMUSCOPE" record -e cpu-clock -c 100000 -o p.data -- "$PMS_WORKLOADS/loop" >/dev/null 2>&1 || true
for bad in "comma.json:line 1, column" "text.json:counts\[0\]: run_values\[1\]: expected a number" \
           "short.json:3 run_values for 2 runs" "nocounts.json:expected a \"counts\" array" "cut.json:line"; do
    file=${bad%%:*} want=${bad#*:}
    rc=0; "$PMUSCOPE" diff one.json "$file" > /dev/null 2> err.txt || rc=$?
    [ "$rc" -eq 1 ] && grep -q "^pmuscope: $file: .*$want" err.txt || fail "$file: exit $rc, $(cat err.txt)"
done
if [ -s p.data ]; then
    rc=0; "$PMUSCOPE" diff one.json p.data > /dev/null 2> err.txt || rc=$?
    [ "$rc" -eq 1 ] && grep -q 'p.data: a profile, but the other inputs are counts' err.txt ||
        fail "counts against a profile: exit $rc, $(cat err.txt)"
fi
rc=0; "$PMUSCOPE" diff one.json two.json --pprof x.pb.gz > /dev/null 2> err.txt || rc=$?
[ "$rc" -eq 2 ] || fail "--pprof of counts: exit $rc"
echo ok
