#!/usr/bin/env bash
# pmuscope diff on recordings of workloads/hotspots: the same run twice reports no change
# (exit 0 with --fail-on-change); the run with hot_a's share moved 5 points from hot_b
# (--shift 5) reports hot_a up and hot_b down (exit 3); every p-value, interval, q-value and
# detectable change equals R's prop.test, p.adjust and qnorm on the same counts, with and
# without the continuity correction; with 3 runs a side, R's t.test on the runs' shares
# (from each run's report); usage errors exit 2, bad inputs 1 with the file named.
# The recordings sample user mode only (cpu-clock:u): the workload's own code runs the same
# in every run, where interrupts and other processes move the kernel's share from run to run
# (a real difference between runs, which one run a side cannot tell from a change).
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v Rscript >/dev/null || fail "Rscript (r-base-core) is needed: scripts/install-deps.sh installs it"
cd "$tmp"
ref=$PMS_FIXTURES/diff/diff_reference.R
rec() { out=$1; shift; "$PMUSCOPE" record -e cpu-clock:u -c 20000 -o "$out" -- "$PMS_WORKLOADS/hotspots" "$@" >/dev/null 2>&1; }
rec a.data
rec b.data
rec s5.data --shift 5
verdict() { awk -F, -v f="$2" 'NR > 1 && $3 == f { print $NF }' "$1"; }

# the same run twice: no change, exit 0. Two things could fail it that are not pmuscope's
# error, so the check rules them out. Sampling noise alone flags some row with a probability of
# at most the FDR (Benjamini-Hochberg's guarantee): at the default 0.05, one run in twenty or
# less, so the check asks for FDR 0.001. And two runs of the same program differ for real in
# their small rows on a busy machine (in one CI run main held 14 of 19,443 samples and 0 of
# 19,680, q = 0.023): the gate is on a change of more than 1 point, as docs/diff.md's CI
# example gates.
rc=0; "$PMUSCOPE" diff a.data b.data --fdr 0.001 --fail-on-change=1 > same.txt || rc=$?
[ "$rc" -eq 0 ] || fail "the same run twice: exit $rc: $(cat same.txt)"
grep -q '^# 95% intervals; Benjamini-Hochberg q-values over [0-9]* rows at FDR 0.001: [0-9]* changed$' same.txt ||
    fail "same run: header $(sed -n 3p same.txt)"
"$PMUSCOPE" diff a.data b.data --fdr 0.001 --csv > same.csv
for f in hot_a hot_b hot_c hot_d hot_e; do [ "$(verdict same.csv $f)" = none ] || fail "same run: $f $(verdict same.csv $f)"; done
# each hot function's detectable change is printed and under 3 points with ~20000 samples
awk '$NF ~ /^hot_[a-e]$/ { n++; if (!($(NF - 2) > 0 && $(NF - 2) < 3)) bad = 1 } END { exit bad || n != 5 }' same.txt ||
    fail "detectable changes: $(grep hot_ same.txt)"

# hot_a's share moved by 5 points: up, hot_b down, the others unchanged, exit 3
# (FDR 0.001 as above: hot_c, hot_d and hot_e are the same run's, each a chance of a false alarm)
rc=0; "$PMUSCOPE" diff a.data s5.data --fdr 0.001 --fail-on-change --csv > moved.csv || rc=$?
[ "$rc" -eq 3 ] || fail "a 5-point change: exit $rc"
[ "$(verdict moved.csv hot_a)" = up ] && [ "$(verdict moved.csv hot_b)" = down ] ||
    fail "hot_a $(verdict moved.csv hot_a), hot_b $(verdict moved.csv hot_b)"
for f in hot_c hot_d hot_e; do [ "$(verdict moved.csv $f)" = none ] || fail "$f: $(verdict moved.csv $f)"; done
awk -F, '$3 == "hot_a" { exit !($14 > 0.035 && $14 < 0.065 && $15 > 0 && $15 < $14 && $16 > $14) }' moved.csv ||
    fail "hot_a's change and interval: $(grep ,hot_a, moved.csv)"
# --fail-on-change=PCT: the change is 5 points, not 10
rc=0; "$PMUSCOPE" diff a.data s5.data --fail-on-change=10 > /dev/null || rc=$?
[ "$rc" -eq 0 ] || fail "--fail-on-change=10 on a 5-point change: exit $rc"
rc=0; "$PMUSCOPE" diff a.data s5.data --fail-on-change=2 > /dev/null || rc=$?
[ "$rc" -eq 3 ] || fail "--fail-on-change=2 on a 5-point change: exit $rc"
# the text: changed rows first, largest change first
"$PMUSCOPE" diff a.data s5.data > moved.txt
sed -n 6,7p moved.txt | awk '{ print $NF }' | sort | tr '\n' ' ' | grep -qx 'hot_a hot_b ' ||
    fail "the changed rows do not come first: $(cat moved.txt)"

# by report's other sort keys: binaries (hotspots' share does not move), instructions (hot_a's
# rise is in its instructions)
"$PMUSCOPE" diff a.data s5.data --sort dso --fdr 0.001 --csv > dso.csv
awk -F, '$2 ~ /hotspots$/ && $NF == "none" { ok = 1 } END { exit !ok }' dso.csv || fail "--sort dso: $(cat dso.csv)"
"$PMUSCOPE" diff a.data s5.data --sort symoff --json > ip.json
jq -e '[.rows[] | select(.verdict == "up" and .function == "hot_a" and .symbol_offset != null)] | length >= 1' ip.json     > /dev/null || fail "--sort symoff: no instruction of hot_a up"

# R on the same counts: prop.test with and without the continuity correction, p.adjust
Rscript "$ref" profiles moved.csv 0.001 0.8 TRUE || fail "profiles differ from R (continuity correction)"
"$PMUSCOPE" diff a.data s5.data --no-continuity --fdr 0.1 --power 0.9 --confidence 0.9 --csv > plain.csv
Rscript "$ref" profiles plain.csv 0.1 0.9 FALSE 0.9 || fail "profiles differ from R (no continuity correction)"
# ... and the check can fail: a p-value moved
awk -F, -v OFS=, '$3 == "hot_c" { $17 = $17 * 1.01 } 1' moved.csv > bad.csv
if Rscript "$ref" profiles bad.csv 0.001 0.8 TRUE > /dev/null; then fail "a moved p-value passes"; fi

# runs on both sides: Welch's test of the runs' shares, R's t.test on the shares of each
# run's own report (the rows meet by binary name and function)
for i in 1 2 3; do rec base$i.data; rec new$i.data --shift 5; done
"$PMUSCOPE" diff base1.data,base2.data,base3.data --new new1.data --new new2.data,new3.data --csv > runs.csv 2>err.txt &&
    fail "BASE NEW and --new together must be a usage error"
"$PMUSCOPE" diff --base base1.data,base2.data,base3.data --new new1.data --new new2.data,new3.data --csv > runs.csv
"$PMUSCOPE" diff --base base1.data,base2.data,base3.data --new new1.data,new2.data,new3.data --json > runs.json
grep -q '"method": "welch-runs"' runs.json || fail "3 runs a side: not the runs' test"
[ "$(verdict runs.csv hot_a)" = up ] || fail "3 runs a side: hot_a $(verdict runs.csv hot_a)"
for f in base1 base2 base3 new1 new2 new3; do "$PMUSCOPE" report -i $f.data --limit 0 --csv > $f.csv; done
Rscript "$ref" runs runs.csv 0.05 0.8 3 3 base1.csv base2.csv base3.csv new1.csv new2.csv new3.csv ||
    fail "the runs' test differs from R"
# runs that differ more than sampling makes them (hot_a at 40, 42, 44 and 41, 43, 45%): those
# rows take R's t.test itself
for i in 0 1 2 3 4 5; do rec v$i.data --shift $i; done
"$PMUSCOPE" diff v0.data,v2.data,v4.data v1.data,v3.data,v5.data --csv > vruns.csv
for i in 0 1 2 3 4 5; do "$PMUSCOPE" report -i v$i.data --limit 0 --csv > v$i.csv; done
Rscript "$ref" runs vruns.csv 0.05 0.8 3 3 v0.csv v2.csv v4.csv v1.csv v3.csv v5.csv > vruns.txt ||
    fail "the runs' test differs from R: $(cat vruns.txt)"
awk '/at the sampling floor/ { exit !($2 <= $4 - 2) }' vruns.txt || fail "hot_a and hot_b did not take t.test: $(cat vruns.txt)"
# one run against three: pooled, and said so
"$PMUSCOPE" diff a.data new1.data,new2.data,new3.data > pooled.txt
grep -q 'note: NEW has 3 runs and BASE 1: their samples are pooled' pooled.txt || fail "pooled runs: no note"

# usage: exit 2
for args in "a.data" "a.data b.data c.data" "--sort pid a.data b.data" "--sort nosuch a.data b.data" \
            "--fdr 1.5 a.data b.data" "--fail-on-change=x a.data b.data" "--json --csv a.data b.data"; do
    rc=0; "$PMUSCOPE" diff $args > /dev/null 2> err.txt || rc=$?
    [ "$rc" -eq 2 ] && grep -q '^pmuscope: ' err.txt || fail "diff $args: exit $rc, $(cat err.txt)"
done
"$PMUSCOPE" diff --help | grep -q -- '--fail-on-change' || fail "--help"
# bad inputs: exit 1, the file named
head -c 3000 a.data > cut.data
printf 'not a profile\n' > junk.txt
"$PMUSCOPE" stat -r 2 --json -o counts.json -e task-clock -- true 2>/dev/null
for args in "cut.data b.data" "a.data junk.txt" "a.data missing.data" "a.data counts.json" "-e page-faults a.data b.data"; do
    rc=0; "$PMUSCOPE" diff $args > /dev/null 2> err.txt || rc=$?
    file=$(echo "$args" | awk '{ print ($1 == "-e" ? $3 : $1 == "a.data" ? $2 : $1) }')
    [ "$rc" -eq 1 ] && grep -q "^pmuscope: .*$file" err.txt || fail "diff $args: exit $rc, $(cat err.txt)"
done
echo ok
