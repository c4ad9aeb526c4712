#!/bin/bash
# pmuscope report on a file from `perf record`: sample count equal to perf script's,
# shares equal to perf report --stdio --sort sym, the hotspots order, --sort ip, --json,
# --csv, and clear failures on bad options and corrupt files.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data=$tmp/perf.data
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/processes.sh"
. "$PMS_SOURCE_DIR/tests/lib/csv.sh" # plain_csv

perf record -q -e cpu-clock -c 100000 -o "$data" -- "$PMS_WORKLOADS/hotspots" >/dev/null 2>&1

# Samples: the sum of the CSV rows equals perf script's line count.
# Function names may hold commas (demangled C++ templates, quoted in the CSV): the awk checks
# below read a copy whose quoted commas are semicolons.
"$PMUSCOPE" report -i "$data" --csv --limit 0 > "$tmp/raw.csv"
plain_csv < "$tmp/raw.csv" > "$tmp/sym.csv"
ours=$(awk -F, 'NR>1{s+=$7} END{print s}' "$tmp/sym.csv")
theirs=$(perf script -i "$data" -F ip 2>/dev/null | wc -l)
[ "$ours" -eq "$theirs" ] || { echo "report counts $ours samples, perf script $theirs"; exit 1; }
# --csv=FILE and --json=FILE write beside the text: the same CSV as --csv alone.
"$PMUSCOPE" report -i "$data" --csv="$tmp/side.csv" --json="$tmp/side.json" --limit 0 > "$tmp/side.txt"
cmp -s "$tmp/raw.csv" "$tmp/side.csv" || { echo "--csv=FILE differs from --csv"; exit 1; }
grep -q '^# .*samples' "$tmp/side.txt" && grep -q '"rows_total"' "$tmp/side.json" || { echo "--json=FILE: no text or JSON"; exit 1; }

# Shares in a pmuscope CSV agree with perf report --stdio --sort sym (which prints two
# decimals) on the same file, for every hot function.
same_shares_as_perf() { # CSV PERF.DATA
    perf report -i "$2" --stdio --sort sym 2>/dev/null > "$tmp/perf.txt"
    for f in hot_a hot_b hot_c hot_d hot_e; do
        mine=$(awk -F, -v f=$f '$3==f{printf "%.4f", 100*$9}' "$1")
        perfs=$(awk -v f=$f '$3==f{print $1+0}' "$tmp/perf.txt")
        # perf prints 2 decimals (rounded: off by up to 0.005), pmuscope 4 (up to 0.00005)
        awk -v a="$mine" -v b="$perfs" -v f=$f 'BEGIN{d=a-b; if (d<0) d=-d; if (d>0.00505) {print f": pmuscope "a"% perf "b"%"; exit 1}}'
    done
}
same_shares_as_perf "$tmp/sym.csv" "$data"

# hot_a > hot_b > hot_c > hot_d > hot_e, and each interval holds its share.
order=$(awk -F, 'NR>1 && $3 ~ /^hot_/{print $3}' "$tmp/sym.csv" | tr '\n' ' ')
[ "$order" = "hot_a hot_b hot_c hot_d hot_e " ] || { echo "order: $order"; exit 1; }
awk -F, 'NR>1 && !($10 <= $9 && $9 <= $11) {print "interval does not hold the share: " $0; exit 1}' "$tmp/sym.csv"

# A wider confidence level gives wider intervals.
"$PMUSCOPE" report -i "$data" --csv --confidence 0.99 | plain_csv > "$tmp/sym99.csv"
paste -d, <(awk -F, '$3=="hot_e"{print $11-$10}' "$tmp/sym.csv") <(awk -F, '$3=="hot_e"{print $11-$10}' "$tmp/sym99.csv") |
    awk -F, '{ if (!($2 > $1)) {print "99% interval not wider than 95%"; exit 1} }'

# By instruction: the same total, rows inside the functions, text form shows offsets.
"$PMUSCOPE" report -i "$data" --sort ip --csv --limit 0 | plain_csv > "$tmp/ip.csv"
[ "$(awk -F, 'NR>1{s+=$7} END{print s}' "$tmp/ip.csv")" -eq "$theirs" ]
grep -q 'hot_a+0x' <("$PMUSCOPE" report -i "$data" --sort ip --limit 3)

# JSON parses and carries the same numbers.
"$PMUSCOPE" report -i "$data" --json --limit 0 > "$tmp/r.json"
python3 - "$tmp/r.json" "$theirs" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
ev = doc["events"][0]
assert ev["event"] == "cpu-clock", ev["event"]
assert ev["samples"] == int(sys.argv[2]), (ev["samples"], sys.argv[2])
assert sum(r["samples"] for r in ev["rows"]) == ev["samples"]
assert ev["rows"][0]["function"] == "hot_a"
assert abs(sum(r["share"] for r in ev["rows"]) - 1) < 1e-9
# perf record -c 100000 stores no period in the samples: each stands for 100000.
assert all(r["period"] == 100000 * r["samples"] for r in ev["rows"])
EOF

# Frequency mode (perf record -F): periods vary, and --weight period gives perf's overhead.
perf record -q -e cpu-clock -F 1999 -o "$tmp/freq.data" -- "$PMS_WORKLOADS/hotspots" >/dev/null 2>&1
"$PMUSCOPE" report -i "$tmp/freq.data" --weight period --csv --limit 0 > "$tmp/freq.csv"
same_shares_as_perf "$tmp/freq.csv" "$tmp/freq.data"

# Two events in one file (samples told apart by their ids): one table each, with the
# sample counts that perf script shows per event.
perf record -q -e cpu-clock/period=200000/,page-faults/period=1/ -o "$tmp/two.data" -- "$PMS_WORKLOADS/hotspots" >/dev/null 2>&1
"$PMUSCOPE" report -i "$tmp/two.data" --csv --limit 0 | plain_csv > "$tmp/two.csv"
perf script -i "$tmp/two.data" -F event 2>/dev/null | sed 's/: *$//' | sort | uniq -c | awk '{print $2, $1}' | sort > "$tmp/perf-events"
awk -F, 'NR>1{n[$1]+=$7} END{for (e in n) print e, n[e]}' "$tmp/two.csv" | sort > "$tmp/our-events"
diff "$tmp/perf-events" "$tmp/our-events" || { echo "per-event sample counts differ from perf script"; exit 1; }
[ "$(wc -l < "$tmp/our-events")" -eq 2 ]

# Text table default, --help, usage errors, runtime errors.
grep -q 'hot_a' <("$PMUSCOPE" report -i "$data" | head -3)
grep -q 'Wilson' <("$PMUSCOPE" report --help)
set +e
"$PMUSCOPE" report --sort bogus -i "$data" 2>/dev/null; [ $? -eq 2 ] || exit 1
"$PMUSCOPE" report --confidence 1.5 -i "$data" 2>/dev/null; [ $? -eq 2 ] || exit 1
"$PMUSCOPE" report -i "$tmp/missing.data" 2>"$tmp/err"; [ $? -eq 1 ] || exit 1
grep -q "missing.data" "$tmp/err" || exit 1
"$PMUSCOPE" report -i "$data" -e cycles 2>"$tmp/err"; [ $? -eq 1 ] || exit 1
grep -q "no event named 'cycles'" "$tmp/err" || exit 1
# A truncated file: an error that names the offset, never a partial report.
head -c $(( $(stat -c %s "$data") / 2 )) "$data" > "$tmp/cut.data"
"$PMUSCOPE" report -i "$tmp/cut.data" >"$tmp/out" 2>"$tmp/err"; [ $? -eq 1 ] || exit 1
grep -q "offset" "$tmp/err" || { cat "$tmp/err"; exit 1; }
[ ! -s "$tmp/out" ] || exit 1
# perf record killed with SIGKILL leaves a header without data size or features.
perf record -q -e cpu-clock -o "$tmp/killed.data" -- "$PMS_WORKLOADS/hotspots" --scale 30 >/dev/null 2>&1 &
perf_pid=$!
child=$(child_of $perf_pid hotspots)
wait_cpu_ms "$child" 200
kill -9 $perf_pid
kill -9 "$child"
wait $perf_pid 2>/dev/null
"$PMUSCOPE" report -i "$tmp/killed.data" >"$tmp/out" 2>"$tmp/err"; [ $? -eq 1 ] || exit 1
grep -q "offset 48: .*killed before it finished" "$tmp/err" || { cat "$tmp/err"; exit 1; }
set -e
echo ok
