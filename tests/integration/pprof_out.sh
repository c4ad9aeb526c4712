#!/bin/bash
# pmuscope's pprof profiles (report --pprof, record --pprof) read by other people's readers:
# go tool pprof's flat shares equal pmuscope report's within 0.1 percentage point (by
# samples and by period), on a file from pmuscope record with randomised periods and on
# one from perf record; read-counter increments sum to what perf script shows; mappings
# carry the binary's build-id (readelf) and locations the source line addr2line gives;
# labels and comments carry the Wilson intervals, the periods and the seed; the npm
# package pprof-format decodes the same files to the same shares. With callchains (record -g)
# samples hold their stacks, leaf first, and go tool pprof -top -cum's cumulative shares equal
# report --children's (and its flat shares report's) within 0.1 point, by samples and by period.
set -euo pipefail
. "$PMS_SOURCE_DIR/tests/lib/pprof.sh" # $tmp, fail, the readers
hot=$PMS_WORKLOADS/hotspots

"$PMUSCOPE" record -e cpu-clock -c 100000 --randomize=mask:13 --seed 7 -o "$tmp/rec.data" \
    --pprof "$tmp/rec.pb.gz" -- "$hot" >/dev/null 2>"$tmp/rec.err" || { cat "$tmp/rec.err"; fail "record --pprof"; }
grep -q "pprof profile in $tmp/rec.pb.gz" "$tmp/rec.err" || fail "record does not name its profile"
perf record -q -e cpu-clock -c 100000 -o "$tmp/perf.data" -- "$hot" >/dev/null 2>&1

check_against_go() { # PERF.DATA PROFILE [A FUNCTION IT MUST SHOW, default hot_a]
    "$PMUSCOPE" report -i "$1" --csv --limit 0 > "$tmp/report.csv"
    "$PMUSCOPE" report -i "$1" --csv --limit 0 --weight period > "$tmp/report-period.csv"
    report_flat "$tmp/report.csv" > "$tmp/report.flat"
    report_flat "$tmp/report-period.csv" > "$tmp/report-period.flat"
    go_flat "$2" 0 > "$tmp/go.flat"   # cpu-clock_samples
    go_flat "$2" 1 > "$tmp/go-period.flat" # cpu-clock (nanoseconds)
    grep -q "	${3:-hot_a}$" "$tmp/go.flat" || fail "$2: go tool pprof shows no ${3:-hot_a}: $(cat "$tmp/go.flat")"
    same_flat "$tmp/report.flat" "$tmp/go.flat" 0.1 0.3 "$2 samples: report against go tool pprof"
    same_flat "$tmp/report-period.flat" "$tmp/go-period.flat" 0.1 0.3 "$2 period: report against go tool pprof"
}
check_against_go "$tmp/rec.data" "$tmp/rec.pb.gz"
"$PMUSCOPE" report -i "$tmp/perf.data" --pprof "$tmp/perf.pb.gz" > "$tmp/report.txt"
grep -q 'hot_a' "$tmp/report.txt" || fail "report --pprof does not print the table any more"
check_against_go "$tmp/perf.data" "$tmp/perf.pb.gz"

# The comment: the events, their periods and randomisation, the seed, top functions with intervals.
gopprof -comments "$tmp/rec.pb.gz" > "$tmp/comments.txt" 2>&1
grep -q -- '--randomize=mask:13 --seed 7' "$tmp/comments.txt" || fail "no seed in the comment: $(cat "$tmp/comments.txt")"
# the periods' range as perf script reads them from the file
read -r pmin pmax < <(perf script -i "$tmp/rec.data" -F period 2>/dev/null |
                      awk 'NR == 1 || $1 < lo {lo = $1} $1 > hi {hi = $1} END {print lo, hi}')
grep -q "^event cpu-clock: [0-9]* samples, sampled every 100000 nanoseconds, randomised: periods from $pmin to $pmax$" \
    "$tmp/comments.txt" || fail "no randomised periods $pmin to $pmax in the comment: $(cat "$tmp/comments.txt")"
"$PMUSCOPE" report -i "$tmp/rec.data" --csv --limit 0 | plain_csv > "$tmp/rec.csv"
share_a=$(awk -F, '$3 == "hot_a" {printf "%.2f%% [%.2f, %.2f]", 100 * $9, 100 * $10, 100 * $11}' "$tmp/rec.csv")
grep -qF "$share_a  hot_a" "$tmp/comments.txt" || fail "the comment lacks hot_a's $share_a: $(cat "$tmp/comments.txt")"
gopprof -comments "$tmp/perf.pb.gz" 2>&1 | grep -q 'sampled every 100000 nanoseconds (fixed, not randomised)' ||
    fail "perf record's fixed period is not in the comment"

# Labels: every sample carries its share with the interval; the -raw dump has them.
gopprof -raw "$tmp/rec.pb.gz" > "$tmp/raw.txt" 2>&1
nsamples=$(awk '/^Samples:/ {s=1; next} /^Locations/ {s=0} s && /: [0-9]+ *$/' "$tmp/raw.txt" | wc -l)
nlabels=$(grep -cE 'cpu-clock share:\[[0-9.]+% \[[0-9.]+%, [0-9.]+%\] \(95% Wilson\)\]' "$tmp/raw.txt")
[ "$nsamples" -gt 5 ] && [ "$nsamples" -eq "$nlabels" ] || fail "$nsamples samples, $nlabels share labels"

# Mappings: the workload's build-id as readelf reads it; locations: the line addr2line gives.
id=$(readelf -n "$hot" | awk '/Build ID/ {print $3}')
grep -Eq "^[0-9]+: 0x[0-9a-f]+/0x[0-9a-f]+/0x[0-9a-f]+ $hot $id \[FN\]\[FL\]\[LN\]" "$tmp/raw.txt" ||
    fail "no mapping of $hot with build-id $id: $(sed -n '/^Mappings/,$p' "$tmp/raw.txt")"
read -r start pgoff < <(awk -v f="$hot" '$3 == f {split($2, a, "/"); print a[1], a[3]}' "$tmp/raw.txt")
mid=$(awk -v f="$hot" '$3 == f {sub(/:/, "", $1); print $1}' "$tmp/raw.txt")
checked=0
while read -r addr file_line; do # PIE text: ELF address = file offset
    want=$(addr2line -e "$hot" "$(printf '0x%x' $((addr - start + pgoff)))" | sed 's/ (discriminator [0-9]*)$//')
    case $want in "??:"*) want=":0" ;; esac # no line information there (a PLT stub, _start): none in pprof
    [ "$want" = "$file_line" ] || fail "location $addr: pprof says $file_line, addr2line $want"
    checked=$((checked + 1))
done < <(awk -v m="M=$mid" '$3 == m {print $2, $5}' "$tmp/raw.txt")
[ "$checked" -ge 5 ] || fail "only $checked locations in $hot"

# --read counters: their increments are sample types whose totals equal perf script's sums.
"$PMUSCOPE" record -e cpu-clock -c 200000 --read task-clock,page-faults -o "$tmp/read.data" \
    --pprof "$tmp/read.pb.gz" -- "$hot" >/dev/null 2>&1
gopprof -raw "$tmp/read.pb.gz" > "$tmp/read.txt" 2>&1
grep -q '^cpu-clock_samples/count\[dflt\] cpu-clock/nanoseconds task-clock/nanoseconds page-faults/events$' \
    "$tmp/read.txt" || fail "sample types: $(grep -A1 '^Samples' "$tmp/read.txt")"
for k in 3 4; do
    name=$( [ $k = 3 ] && echo task-clock || echo page-faults )
    ours=$(awk -v k=$k '/^Samples:/ {s=1; next} /^Locations/ {s=0} s && /: [0-9]+ *$/ {t += $k} END {print t}' "$tmp/read.txt")
    perfs=$(perf script -i "$tmp/read.data" -F event,period 2>/dev/null | awk -v e="$name:" '$2 == e {t += $1} END {print t}')
    [ "$ours" = "$perfs" ] || fail "$name: the profile sums $ours, perf script $perfs"
done

# Callchains: a record -g recording of the calltree workload; its profile's stacks give
# go tool pprof's cumulative shares, equal to report --children's.
"$PMUSCOPE" record -g -e cpu-clock -c 100000 -o "$tmp/cg.data" --pprof "$tmp/cg.pb.gz" -- "$PMS_WORKLOADS/calltree" \
    >/dev/null 2>&1 || fail "record -g --pprof"
check_against_go "$tmp/cg.data" "$tmp/cg.pb.gz" spin_x
check_cum() { # PERF.DATA PROFILE
    "$PMUSCOPE" report -i "$1" --children --csv --limit 0 > "$tmp/children.csv"
    "$PMUSCOPE" report -i "$1" --children --csv --limit 0 --weight period > "$tmp/children-period.csv"
    report_children "$tmp/children.csv" > "$tmp/report.cum"
    report_children "$tmp/children-period.csv" > "$tmp/report-period.cum"
    go_cum "$2" 0 > "$tmp/go.all"
    go_cum "$2" 1 > "$tmp/go-period.all"
    awk -F'\t' '$2 != "[unknown]"' "$tmp/go.all" > "$tmp/go.cum"
    awk -F'\t' '$2 != "[unknown]"' "$tmp/go-period.all" > "$tmp/go-period.cum"
    same_flat "$tmp/report.cum" "$tmp/go.cum" 0.1 1 "$2 cumulative samples: report --children against go tool pprof -cum"
    same_flat "$tmp/report-period.cum" "$tmp/go-period.cum" 0.1 1 "$2 cumulative period: report --children against go tool pprof -cum"
}
check_cum "$tmp/cg.data" "$tmp/cg.pb.gz"
# report --children on the profile itself (a recursive call tree): go tool pprof -cum's shares
"$PMUSCOPE" report -i "$tmp/cg.pb.gz" -e cpu-clock_samples --children --csv --limit 0 > "$tmp/pprof-children.csv"
report_children "$tmp/pprof-children.csv" | awk -F'\t' '$2 != "[unknown]"' > "$tmp/pprof.cum" # as go.cum
same_flat "$tmp/pprof.cum" "$tmp/go.cum" 0.1 1 "cg.pb.gz: report --children of the profile against go tool pprof -cum"
grep -q '^[0-9.]*	branch_a$' "$tmp/go.cum" || fail "go tool pprof -cum shows no branch_a: $(cat "$tmp/go.cum")"
awk -F'\t' '$2 == "branch_a" && $1 > 30 {ok = 1} END {exit !ok}' "$tmp/go.cum" ||
    fail "branch_a's cumulative share is not its callees': $(cat "$tmp/go.cum")"
# leaf first: a sample in spin_x has branch_a next
gopprof -traces "$tmp/cg.pb.gz" > "$tmp/traces.txt" 2>&1
awk '$NF == "spin_x" {getline; if ($NF == "branch_a") ok = 1} END {exit !ok}' "$tmp/traces.txt" ||
    fail "no stack spin_x <- branch_a: $(head -40 "$tmp/traces.txt")"

# The npm package pprof-format decodes every profile to the same shares as go tool pprof.
"$PMS_SOURCE_DIR/scripts/npm-pprof-format.sh" "$PMS_BUILD_DIR/npm" || fail "cannot install pprof-format"
for f in rec perf read cg; do
    node "$PMS_SOURCE_DIR/tests/pprof/decode.cjs" "$PMS_BUILD_DIR/npm/node_modules" "$tmp/$f.pb.gz" 0 > "$tmp/node.flat" ||
        fail "pprof-format cannot decode $f.pb.gz"
    go_flat "$tmp/$f.pb.gz" 0 > "$tmp/go.flat"
    same_flat "$tmp/node.flat" "$tmp/go.flat" 0.01 0 "$f.pb.gz: pprof-format against go tool pprof"
done

# perf.data files nobody here wrote (tests/data/perf-corpus: perf 3.2 to 6.12, several
# architectures): every one that report reads becomes a profile that go tool pprof and
# pprof-format read, holding report's samples of the first event, at report's shares.
read=0
for f in "$PMS_SOURCE_DIR"/tests/data/perf-corpus/*/perf*; do
    "$PMUSCOPE" report -i "$f" --csv --limit 0 --pprof "$tmp/c.pb.gz" > "$tmp/c.csv" 2>/dev/null || continue
    read=$((read + 1))
    event=$(awk -F, 'NR == 2 {print $1}' "$tmp/c.csv")
    awk -F, -v e="$event" 'NR > 1 && $1 == e' "$tmp/c.csv" | { echo header; cat; } > "$tmp/c1.csv"
    ours=$(awk -F, 'NR > 1 {t += $7} END {print t}' "$tmp/c1.csv")
    theirs=$(gopprof -raw "$tmp/c.pb.gz" 2>"$tmp/go.err" |
             awk '/^Samples:/ {s=1; getline; next} /^Locations/ {s=0} s && /:/ {t += $1} END {print t}')
    [ "$ours" = "$theirs" ] || fail "$f: report counts $ours samples of $event, go tool pprof $theirs: $(cat "$tmp/go.err")"
    report_flat "$tmp/c1.csv" > "$tmp/report.flat"
    go_flat "$tmp/c.pb.gz" 0 > "$tmp/go.flat"
    same_flat "$tmp/report.flat" "$tmp/go.flat" 0.1 0.3 "$f: report against go tool pprof"
    node "$PMS_SOURCE_DIR/tests/pprof/decode.cjs" "$PMS_BUILD_DIR/npm/node_modules" "$tmp/c.pb.gz" 0 > "$tmp/node.flat" ||
        fail "pprof-format cannot decode the profile of $f"
    same_flat "$tmp/node.flat" "$tmp/go.flat" 0.01 0 "$f: pprof-format against go tool pprof"
done
[ "$read" -ge 15 ] || fail "only $read corpus files read"

# Failures name the file: a perf.data that is not one, an output that cannot be written.
echo "not perf" > "$tmp/bad.data"
if "$PMUSCOPE" report -i "$tmp/bad.data" --pprof "$tmp/x.pb.gz" 2>"$tmp/err"; then fail "bad input accepted"; fi
grep -q "bad.data" "$tmp/err" || fail "the message does not name the file: $(cat "$tmp/err")"
if "$PMUSCOPE" report -i "$tmp/perf.data" --pprof "$tmp/nodir/x.pb.gz" >/dev/null 2>"$tmp/err"; then fail "unwritable output accepted"; fi
grep -q "nodir/x.pb.gz" "$tmp/err" || fail "the message does not name the output: $(cat "$tmp/err")"
echo "pprof_out: ok"
