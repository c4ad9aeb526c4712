#!/bin/bash
# pmuscope report FILE...: perf.data and pprof files merged into one table per event.
# Two recordings merged count exactly the samples of both reports per (binary, function);
# a recording merged with the pprof profile of another gives the same table as with that
# other's perf.data (binaries met by build-id, pmuscope's "<event>_samples" met as the
# event); a Go CPU profile merged with itself doubles every count and keeps every share.
set -euo pipefail
. "$PMS_SOURCE_DIR/tests/lib/pprof.sh" # $tmp, fail, the readers
hot=$PMS_WORKLOADS/hotspots

for r in a b; do
    "$PMUSCOPE" record -e cpu-clock -c 100000 -o "$tmp/$r.data" -- "$hot" >/dev/null 2>&1
    "$PMUSCOPE" report -i "$tmp/$r.data" --csv --limit 0 --pprof "$tmp/$r.pb.gz" | plain_csv > "$tmp/$r.csv"
done
# samples per "binary,function" (column 2 is the full path, 3 the function)
per_row() { awk -F, 'FNR > 1 {n = split($2, p, "/"); s[p[n] "," ($3 == "" ? "[unknown]" : $3)] += $7}
                     END {for (k in s) print k "," s[k]}' "$@" | sort; }
per_row "$tmp/a.csv" "$tmp/b.csv" | awk -F, '{s[$1 "," $2] += $3} END {for (k in s) print k "," s[k]}' | sort > "$tmp/want"
"$PMUSCOPE" report "$tmp/a.data" "$tmp/b.data" --csv --limit 0 | plain_csv > "$tmp/ab.csv"
per_row "$tmp/ab.csv" > "$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || fail "merged counts differ: $(diff "$tmp/want" "$tmp/got")"
total=$(awk -F, 'NR > 1 {t += $7} END {print t}' "$tmp/ab.csv")
[ "$total" -eq "$(awk -F, 'FNR > 1 {t += $7} END {print t}' "$tmp/a.csv" "$tmp/b.csv")" ] || fail "merged total $total"
awk -F, -v t="$total" 'NR > 1 {d = $9 - $7 / t; if (d < 0) d = -d; if (d > 1e-6 || !($10 <= $9 && $9 <= $11)) {print "share: " $0; exit 1}}' \
    "$tmp/ab.csv" || fail "merged shares or intervals"
"$PMUSCOPE" report "$tmp/a.data" "$tmp/b.pb.gz" --csv --limit 0 | plain_csv > "$tmp/apb.csv"
per_row "$tmp/apb.csv" > "$tmp/got-pprof"
cmp -s "$tmp/want" "$tmp/got-pprof" || fail "perf.data + pprof differs: $(diff "$tmp/want" "$tmp/got-pprof")"
"$PMUSCOPE" report "$tmp/a.data" "$tmp/b.pb.gz" --limit 3 > "$tmp/apb.txt"
grep -q '^# 2 files merged: event cpu-clock, [0-9]* samples' "$tmp/apb.txt" || fail "header: $(head -2 "$tmp/apb.txt")"

# A Go CPU profile with itself: twice the samples, the same shares.
go_cpu_profile "$tmp/cpu.pb.gz"
"$PMUSCOPE" report -i "$tmp/cpu.pb.gz" --csv --limit 0 | plain_csv > "$tmp/one.csv"
"$PMUSCOPE" report "$tmp/cpu.pb.gz" "$tmp/cpu.pb.gz" --csv --limit 0 | plain_csv > "$tmp/two.csv"
join -t, <(awk -F, 'NR > 1 {print $3 "," $7 "," $9}' "$tmp/one.csv" | sort) \
         <(awk -F, 'NR > 1 {print $3 "," $7 "," $9}' "$tmp/two.csv" | sort) |
    awk -F, '{d = $3 - $5; if (d < 0) d = -d; if ($4 != 2 * $2 || d > 1e-9) {print "row: " $0; bad = 1}} END {exit bad}' ||
    fail "the Go profile twice is not twice the counts at the same shares"
[ "$(wc -l < "$tmp/one.csv")" -eq "$(wc -l < "$tmp/two.csv")" ] || fail "rows differ in number"
if "$PMUSCOPE" report "$tmp/a.data" "$tmp/nosuch" 2>"$tmp/err" >/dev/null; then fail "a missing file was merged"; fi
grep -q "nosuch" "$tmp/err" || fail "the message does not name the file: $(cat "$tmp/err")"
if "$PMUSCOPE" report "$tmp/a.data" "$tmp/b.data" --sort ip 2>/dev/null; then fail "--sort ip with a merge accepted"; fi
echo "pprof_merge: ok"
