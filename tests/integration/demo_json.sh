#!/usr/bin/env bash
# demo --json[=FILE]: every step with its method and paper, status, command, the files it
# wrote and the summary's rows or lines, checked against those files: the report rows are
# report.csv's, the record's sample count is what perf script counts in phases.data, every
# path is there; a failed step says why; --json alone replaces the summary on stdout; the
# terminal summary cites each method's paper as help methods does.
# ctest-labels: serial
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$tmp"

"$PMUSCOPE" demo -o out --steps record,report,olr,estimate --json=demo.json >sum.txt 2>err.txt ||
    { cat err.txt; fail "demo failed"; }
j=demo.json
jq -e '.steps | length == 4 and all(.ok)' "$j" >/dev/null || fail "steps: $(jq -c '[.steps[] | {name, ok}]' "$j")"
[ "$(jq -r .page "$j")" = out/index.html ] && [ -s out/index.html ] || fail "page $(jq -r .page "$j")"
jq -r '.steps[].files[]' "$j" | while read -r f; do [ -e "$f" ] || fail "$f is listed but not there"; done
# the record: the data file and its samples, as perf script counts them
jq -e '.steps[0].files | index("out/phases.data")' "$j" >/dev/null || fail "record: no phases.data in its files"
event=$(perf evlist -i out/phases.data 2>/dev/null | head -n 1) # cycles, or cpu-clock without a PMU
samples=$(perf script -i out/phases.data -F event 2>/dev/null | grep -c " $event:")
jq -r '.steps[0].summary_lines[0]' "$j" | grep -q "(${samples} samples)" ||
    fail "record: $(jq -r '.steps[0].summary_lines[0]' "$j"), perf script $samples samples"
# the report: its rows are the first rows of report.csv, number for number
python3 - "$j" out/report.csv <<'PY' || fail "report rows differ from report.csv"
import csv, json, sys
rows = json.load(open(sys.argv[1]))["steps"][1]["summary_rows"]
table = list(csv.DictReader(open(sys.argv[2])))
assert 0 < len(rows) <= len(table), (len(rows), len(table))
for got, want in zip(rows, table):
    for k, v in got.items():
        assert (v == want[k]) if isinstance(v, str) else abs(v - float(want[k])) <= 1e-9 * max(1, abs(v)), (k, v, want[k])
PY
# a method's step names its method and paper
jq -e '.steps[2] | .name == "olr" and (.method | test("linear regression")) and (.citation | test("Wu"))' "$j" \
    >/dev/null || fail "olr: method and citation"
jq -e '.steps[3] | (.citation | test("Hattori")) and (.summary_rows | length) == 3' "$j" >/dev/null ||
    fail "estimate: $(jq -c '.steps[3] | {citation, summary_rows}' "$j")"
grep -q "== " sum.txt || fail "--json=FILE keeps the summary on stdout"
# the terminal summary cites each method's paper once, as help methods does (olr, estimate)
[ "$(grep -c '^    Paper: ' sum.txt)" -eq 2 ] || fail "summary citations: $(grep -A1 'Paper: ' sum.txt)"
for who in "Qiang Wu and Oskar Mencer, \"Online Linear" "Ryota Hattori, \"Multiple regression"; do
    grep -q "Paper: $who" sum.txt && grep -q "Paper: $who" <("$PMUSCOPE" help methods | tr -s ' \n' ' ') ||
        fail "summary does not cite $who as help methods does"
done

# --json alone: JSON on stdout in place of the summary; a failed step says why.
rc=0
"$PMUSCOPE" demo -o out2 --steps report --json >out2.json 2>err2.txt || rc=$?
[ $rc -eq 1 ] || fail "report without its recording: exit $rc"
jq -e '.steps[0] | (.ok | not) and .exit_status == 1 and (.why | test("phases.data"))' out2.json >/dev/null ||
    fail "failed step: $(cat out2.json)"
echo "demo_json: ok"
