#!/usr/bin/env bash
# A phase table that outlives a run: one run writes its phases (ids, centroid signatures,
# the signature size and seed they were made with) with --save-phases; a later run of the
# same program installed elsewhere (another path, loaded at another address: signatures
# are built from offsets in the files, not from addresses) that loads it with
# --load-phases gives each phase the id it had, though its phases come in another order;
# a new phase gets a new id. Bad tables are refused naming the file, the line and what
# was expected.
# ctest-labels: serial
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$PMUSCOPE

# The phase most of each known phase's intervals got: "A 1 B 2 ..."
ids() { awk -F, 'NR > 1 && $15 ~ /^[ABCD]$/ { n[$15 " " $6]++ }
  END { for (k in n) { split(k, f, " "); if (n[k] > best[f[1]]) { best[f[1]] = n[k]; top[f[1]] = f[2] } }
        for (l in top) print l, top[l] }' "$1" | sort | tr '\n' ' '; }

$P phase -q --save-phases "$tmp/phases.table" --truth "$tmp/1.trace" --csv="$tmp/1.csv" -o /dev/null \
  -- "$PMS_WORKLOADS/phases" --sequence ABC --ms 300 --repeat 1 --trace "$tmp/1.trace"
head -5 "$tmp/phases.table"
grep -q "^pmuscope-phase-table 1$" "$tmp/phases.table"
grep -q "^signature-size 256$" "$tmp/phases.table"
grep -q "^seed 1$" "$tmp/phases.table"
# one line per phase: id, weight, 256 entries adding up to 1
awk '/^phase / { n++; s = 0; for (i = 4; i <= NF; i++) s += $i; if (NF != 259 || s < 0.999999 || s > 1.000001) bad++ }
  END { exit !(n >= 3 && !bad) }' "$tmp/phases.table"
first=$(ids "$tmp/1.csv")
echo "run 1 (ABC): $first"

mkdir "$tmp/elsewhere"
cp "$PMS_WORKLOADS/phases" "$tmp/elsewhere/phases"
$P phase -q --load-phases "$tmp/phases.table" --truth "$tmp/2.trace" --csv="$tmp/2.csv" -o /dev/null \
  -- "$tmp/elsewhere/phases" --sequence DCBA --ms 300 --repeat 1 --trace "$tmp/2.trace"
second=$(ids "$tmp/2.csv")
echo "run 2 (DCBA, loaded): $second"
# A, B and C keep their ids; D, new, gets one that none of them had
for l in A B C; do
  [ "$(grep -o "$l [0-9]*" <<<"$first")" = "$(grep -o "$l [0-9]*" <<<"$second")" ] ||
    { echo "FAIL: $l: $(grep -o "$l [0-9]*" <<<"$first") in run 1, $(grep -o "$l [0-9]*" <<<"$second") in run 2"; exit 1; }
done
d=$(grep -o "D [0-9]*" <<<"$second" | cut -d' ' -f2)
for l in A B C; do [ "$d" != "$(grep -o "$l [0-9]*" <<<"$first" | cut -d' ' -f2)" ]; done
# without the table, run 2's first phase (D) takes id 1 or 2 (after the setup's): ids follow discovery
$P phase -q --truth "$tmp/3.trace" --csv="$tmp/3.csv" -o /dev/null \
  -- "$tmp/elsewhere/phases" --sequence DCBA --ms 300 --repeat 1 --trace "$tmp/3.trace"
echo "run 3 (DCBA, not loaded): $(ids "$tmp/3.csv")"
[ "$(ids "$tmp/3.csv")" != "$second" ]

# A table of other settings: its seed and size are taken unless given, then refused.
rc=0
$P phase -q --seed 7 --load-phases "$tmp/phases.table" -o /dev/null -- "$PMS_WORKLOADS/phases" --ms 10 --repeat 1 \
  2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] && grep -q "the phase table has signatures of 256 entries from projection seed 1; this run makes 256 entries from seed 7" "$tmp/err" ||
  { echo "FAIL: seed mismatch: $rc $(cat "$tmp/err")"; exit 1; }

# Bad tables.
bad() { # text, expected message
  printf "$1" >"$tmp/bad.table"
  rc=0
  $P phase -q --load-phases "$tmp/bad.table" "$PMS_FIXTURES/bbv/two.bb" >/dev/null 2>"$tmp/err" || rc=$?
  [ "$rc" = 1 ] && grep -qF "$2" "$tmp/err" || { echo "FAIL: '$1': rc $rc, $(cat "$tmp/err")"; exit 1; }
}
bad 'pmuscope-phase-table 2\n' "bad.table: line 1: expected the table's version 1"
bad 'hello\n' "bad.table: line 1: expected \"pmuscope-phase-table 1\": not a phase table"
bad '' "bad.table: empty: not a phase table"
bad 'pmuscope-phase-table 1\nsignature-size 3\nseed 1\n' "line 2: the signature size must be a power of two"
bad 'pmuscope-phase-table 1\nsignature-size 4\nseed 1\n' "bad.table: no phases in the table"
bad 'pmuscope-phase-table 1\nsignature-size 4\nseed 1\nphase 1 1 0.5 0.5 0 x\n' \
  "line 4: entry 4 of 4 of the signature: expected a number from 0 to 1"
bad 'pmuscope-phase-table 1\nsignature-size 4\nseed 1\nphase 1 1 0.5 0.5 0 0 0\n' "line 4: more signature entries"
bad 'pmuscope-phase-table 1\nsignature-size 4\nseed 1\nphase 1 1 0.5 0.4 0 0\n' "line 4: the signature's entries do not add up to 1"
bad 'pmuscope-phase-table 1\nsignature-size 4\nseed 1\nphase 1 1 1 0 0 0\nphase 1 2 0 1 0 0\n' "line 5: a second phase with this id"
bad 'pmuscope-phase-table 1\nsignature-size 4\nseed 1\nphase 1 1 1 0 0 0' "bad.table"  # cut short: no newline
rc=0
$P phase -q --load-phases "$tmp/missing.table" "$PMS_FIXTURES/bbv/two.bb" >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] && grep -q "cannot open $tmp/missing.table" "$tmp/err"
# several threads with tables of their own: no one table to save
rc=0
$P phase -q --save-phases "$tmp/t.table" -o /dev/null -- "$PMS_WORKLOADS/phases" --threads 2 --sequence AB --ms 30 \
  --repeat 1 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] && grep -q "each have a phase table of their own.*--shared-phases" "$tmp/err" ||
  { echo "FAIL: two threads: $rc $(cat "$tmp/err")"; exit 1; }
echo "phase_table: ok"
