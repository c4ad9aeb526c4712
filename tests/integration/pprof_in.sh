#!/bin/bash
# pmuscope report reads pprof profiles: a CPU profile that `go test -cpuprofile` writes for
# a small Go program (tests/pprof/goburn, built offline here) is found by its content,
# and its shares per function equal go tool pprof's on both sample types (samples, cpu)
# within 0.1 percentage point, each with a Wilson interval that holds it; --children's
# shares equal go tool pprof -top -cum's; --pprof-input,
# -e TYPE, raw (not gzipped) profiles, and clear failures on broken ones.
set -euo pipefail
. "$PMS_SOURCE_DIR/tests/lib/pprof.sh" # $tmp, fail, the readers

go_cpu_profile "$tmp/cpu.pb.gz"
profile=$tmp/cpu.pb.gz

"$PMUSCOPE" report -i "$profile" --csv --limit 0 > "$tmp/cpu.csv"        # default: cpu (the last type)
"$PMUSCOPE" report -i "$profile" --csv --limit 0 -e samples > "$tmp/samples.csv"
"$PMUSCOPE" report -i "$profile" --pprof-input --limit 0 > "$tmp/cpu.txt"
grep -q '^# .*cpu.pb.gz: event cpu, [0-9]* samples' "$tmp/cpu.txt" || fail "no cpu table: $(head -3 "$tmp/cpu.txt")"
grep -q 'goburn.burnA$' "$tmp/cpu.txt" || fail "burnA is not in the table: $(cat "$tmp/cpu.txt")"
report_flat "$tmp/cpu.csv" > "$tmp/cpu.flat"
report_flat "$tmp/samples.csv" > "$tmp/samples.flat"
go_flat "$profile" cpu > "$tmp/go-cpu.flat"
go_flat "$profile" samples > "$tmp/go-samples.flat"
same_flat "$tmp/cpu.flat" "$tmp/go-cpu.flat" 0.1 0.001 "cpu: report against go tool pprof"
same_flat "$tmp/samples.flat" "$tmp/go-samples.flat" 0.1 0.001 "samples: report against go tool pprof"
# --children: pprof's cum values (each sample once in every function of its stack), as
# go tool pprof -top -cum; the default stays flat, as -top, without children columns.
"$PMUSCOPE" report -i "$profile" --children --csv --limit 0 > "$tmp/children.csv"
report_children "$tmp/children.csv" > "$tmp/cpu.cum"
go_cum "$profile" cpu > "$tmp/go-cpu.cum"
awk -F'\t' '$1 > 50 {n++} END {exit !(n >= 2)}' "$tmp/go-cpu.cum" || fail "go's cum: fewer than 2 functions over 50%"
same_flat "$tmp/cpu.cum" "$tmp/go-cpu.cum" 0.1 0.001 "cum: report --children against go tool pprof -top -cum"
head -1 "$tmp/children.csv" | grep -q children_share || fail "--children: no children columns"
if head -1 "$tmp/cpu.csv" | grep -q children; then fail "the default has children columns"; fi
awk -F, 'NR > 1 && !($10 <= $9 && $9 <= $11 && $10 < $11) {print "no interval around the share: " $0; exit 1}' \
    "$tmp/cpu.csv" || fail "intervals"
# The samples column counts samples: their sum is go's total sample count.
total=$(gopprof -raw "$profile" 2>/dev/null | awk '/^Samples:/ {s=1; getline; next} /^Locations/ {s=0} s && /:/ {t += $1} END {print t}')
ours=$(awk -F, 'NR > 1 {t += $7} END {print t}' "$tmp/cpu.csv")
[ "$ours" = "$total" ] || fail "report counts $ours samples, the profile $total"

# Not gzipped: the same table.
gzip -dc "$profile" > "$tmp/raw.pb"
"$PMUSCOPE" report -i "$tmp/raw.pb" --csv --limit 0 > "$tmp/raw.csv"
cmp -s "$tmp/cpu.csv" "$tmp/raw.csv" || fail "the raw profile gives another table"

# Broken profiles: the message names the file and what is wrong.
head -c 200 "$profile" > "$tmp/cut.pb.gz"
if "$PMUSCOPE" report -i "$tmp/cut.pb.gz" 2>"$tmp/err"; then fail "a truncated profile was read"; fi
grep -q "cut.pb.gz: gzip data ends early" "$tmp/err" || fail "truncated: $(cat "$tmp/err")"
head -c 100 "$tmp/raw.pb" > "$tmp/cut.pb"
if "$PMUSCOPE" report -i "$tmp/cut.pb" --pprof-input 2>"$tmp/err"; then fail "a cut profile was read"; fi
grep -q "cut.pb: " "$tmp/err" || fail "cut: $(cat "$tmp/err")"
if "$PMUSCOPE" report -i "$profile" -e nosuch 2>"$tmp/err"; then fail "-e nosuch accepted"; fi
grep -q "no sample type named 'nosuch'" "$tmp/err" || fail "-e nosuch: $(cat "$tmp/err")"
if "$PMUSCOPE" report -i "$profile" --sort ip 2>"$tmp/err"; then fail "--sort ip on a pprof accepted"; fi
echo "pprof_in: ok"
