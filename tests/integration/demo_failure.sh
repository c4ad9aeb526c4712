#!/usr/bin/env bash
# pmuscope demo when steps fail: each failure is named with its reason, the other steps
# still run, the page is still written (saying what failed), and the exit status is 1.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$tmp"

# fixtures whose cBench table is cut in the middle of a row; the estimate runs table is intact
mkdir -p fx/armpm fx/estimate
head -c 5000 "$PMS_FIXTURES/armpm/cbench-excerpt.tsv" > fx/armpm/cbench-excerpt.tsv
cp "$PMS_FIXTURES/estimate/armpm_runs_2000mhz_run1.csv" fx/estimate/
# report reads the recording that the record step (not run here) would have made; a
# report.csv left by an earlier demo must not be taken for this run's
mkdir out
echo 'event,binary,function,samples' > out/report.csv
echo 'cpu-clock,stale,stale_function,1' >> out/report.csv
rc=0
"$PMUSCOPE" demo -o out --steps report,cpistack,estimate --workloads "$PMS_WORKLOADS" --fixtures fx \
    > sum.txt 2> err.txt || rc=$?
cat err.txt
[ "$rc" -eq 1 ] || fail "exit status $rc, expected 1"
grep -Eq '\[1/3\] report +FAILED after .*: exit status 1: pmuscope: .*phases.data' err.txt \
    || fail "the report failure is not named with the missing file"
grep -Eq '\[2/3\] cpistack +FAILED after .*cbench-excerpt.tsv:[0-9]+: expected' err.txt \
    || fail "the cpistack failure does not name the file and line"
grep -Eq '\[3/3\] estimate +done' err.txt || fail "estimate did not run after the failures"
grep -q "2 of 3 steps failed" err.txt || fail "no count of the failed steps"
grep -q "== report: FAILED" sum.txt && grep -q "== cpistack: FAILED" sum.txt || fail "summary does not list the failures"
grep -Eq "^ +LP +[0-9]+ " sum.txt || fail "summary lost the estimate that worked"
page=out/index.html
[ "$(grep -c 'This step failed' "$page")" -eq 2 ] || fail "the page does not show both failures"
grep -q '<svg' "$page" || fail "the page lost the estimate's figure"
grep -q '<td>LP</td>' "$page" || fail "the page lost the estimate's table"
[ -s out/estimate.csv ] && [ -s out/estimate.svg ] || fail "the estimate's files are missing"
if grep -q stale_function "$page" sum.txt; then fail "a file of an earlier run was shown"; fi

# A step that runs past --step-timeout is stopped, named, and the demo ends (exit 1).
if "$PMUSCOPE" demo -o slow --steps phase --step-timeout 0.3 >slow.txt 2>slow-err.txt; then
    fail "a step past its timeout did not fail the demo"
fi
grep -Eq '\[1/1\] phase +FAILED after .*stopped after 0\.3 s \(--step-timeout\)' slow-err.txt \
    || fail "the stopped step is not named: $(cat slow-err.txt)"
[ -s slow/index.html ] || fail "no page after a stopped step"
echo "ok"
