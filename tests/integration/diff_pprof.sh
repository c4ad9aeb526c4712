#!/usr/bin/env bash
# pmuscope diff against go tool pprof: `go tool pprof -top -diff_base BASE.pb.gz NEW.pb.gz` on
# the two recordings' pprof profiles (report --pprof) gives, for every function, the raw delta
# NEW - BASE that pmuscope diff gives (its rows' new_samples - base_samples, by function
# name), and the profile diff --pprof writes reads the same in pprof without -diff_base. The
# diff of the two pprof profiles themselves gives the same deltas again.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v go >/dev/null || fail "go (golang-go) is needed: scripts/install-deps.sh installs it"
cd "$tmp"
export HOME=$tmp GOCACHE=$tmp/go-cache PPROF_TMPDIR=$tmp
# the kernel's samples included: many functions, some without a symbol
"$PMUSCOPE" record -e cpu-clock -c 50000 -o base.data -- "$PMS_WORKLOADS/hotspots" >/dev/null 2>&1
"$PMUSCOPE" record -e cpu-clock -c 50000 -o new.data -- "$PMS_WORKLOADS/hotspots" --shift 5 >/dev/null 2>&1
"$PMUSCOPE" report -i base.data --pprof base.pb.gz > /dev/null
"$PMUSCOPE" report -i new.data --pprof new.pb.gz > /dev/null
"$PMUSCOPE" diff base.data new.data --json --pprof diff.pb.gz > diff.json

# "function delta" lines, sorted; zero deltas left out (pprof drops them)
top() { go tool pprof -top -nodefraction=0 -nodecount=100000 "$@" 2>/dev/null |
        awk '$1 ~ /^-?[0-9]+$/ && $2 ~ /%$/ { name = $6; for (i = 7; i <= NF; i++) name = name " " $i
             if ($1 != 0) print name, $1 }' | LC_ALL=C sort; }
# pprof shows a demangled C++ name without its template and function parameters (its
# symbolizer's heuristic for names already demangled): the same here, before adding up
deltas() { jq -r '.rows[] | "\(.function // "[unknown]")\t\(.new_samples - .base_samples)"' "$1" |
           perl -F'\t' -lane '$n = $F[0]; if ($n =~ /::|[<>\[\]]/ && $n !~ /\.</) { 1 while $n =~ s/<[^<>]*>//; 1 while $n =~ s/\([^()]*\)//; }
                               $d{$n} += $F[1]; END { print "$_ $d{$_}" for grep { $d{$_} } keys %d }' | LC_ALL=C sort; }
top -sample_index=cpu-clock_samples -diff_base base.pb.gz new.pb.gz > pprof.txt
top diff.pb.gz > ours.txt
deltas diff.json > diff.txt
[ "$(wc -l < pprof.txt)" -ge 5 ] || fail "pprof -diff_base shows $(wc -l < pprof.txt) functions: $(cat pprof.txt)"
grep -q '^hot_a [0-9]' pprof.txt && grep -q '^hot_b -[0-9]' pprof.txt || fail "hot_a up and hot_b down: $(cat pprof.txt)"
cmp -s pprof.txt diff.txt || fail "pmuscope diff's deltas differ from go tool pprof -diff_base: $(diff pprof.txt diff.txt)"
cmp -s pprof.txt ours.txt || fail "diff --pprof reads otherwise in pprof: $(diff pprof.txt ours.txt)"
# its samples carry the verdicts
go tool pprof -raw diff.pb.gz 2>/dev/null | grep -q 'diff verdict:\[up\]' || fail "no verdict labels"

# the two pprof profiles diffed themselves
"$PMUSCOPE" diff base.pb.gz new.pb.gz --json > pb.json
deltas pb.json > pb.txt
cmp -s pprof.txt pb.txt || fail "the diff of the pprof files: $(diff pprof.txt pb.txt)"
# a perf.data against a pprof profile of pmuscope's: its cpu-clock_samples are cpu-clock's
"$PMUSCOPE" diff base.data new.pb.gz --json > mixed.json
deltas mixed.json > mixed.txt
cmp -s pprof.txt mixed.txt || fail "perf.data against pprof: $(diff pprof.txt mixed.txt)"
echo "pprof: $(wc -l < pprof.txt) functions with the same delta"
echo ok
