#!/usr/bin/env bash
# Names whose bytes are not UTF-8 (a 0xff or 0xfe byte) or hold control characters,
# in CSV column headers (counter names) and run labels, go through olr, cpistack and
# estimate: every --json output parses with Python's strict JSON parser and every
# --svg is well-formed XML for xmllint, with the bad bytes written as U+FFFD.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
json_ok() { python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$1" || fail "$1 is not JSON"; }
svg_ok() { xmllint --noout "$1" || fail "$1 is not well-formed XML"; }

# olr: a counter column named "llc<0xff><0x01>miss"
printf 'x,llc\377\001miss\n' > "$tmp/olr.csv"
for i in $(seq 1 40); do echo "$i,$((i * i * 7))" >> "$tmp/olr.csv"; done
"$PMUSCOPE" olr --json "$tmp/olr.csv" > "$tmp/olr.json"
json_ok "$tmp/olr.json"
grep -q 'llc\\ufffd\\u0001miss' "$tmp/olr.json" || fail "olr JSON: counter name"

# cpistack: a miss-event column with 0xff in its name, JSON and SVG
sed '1s/BRANCH_MISPRED/BRANCH\xffMISPRED/' "$PMS_FIXTURES/cpistack/near_singular.csv" > "$tmp/cpi.csv"
"$PMUSCOPE" cpistack --json --svg "$tmp/cpi.svg" "$tmp/cpi.csv" > "$tmp/cpi.json"
json_ok "$tmp/cpi.json"
svg_ok "$tmp/cpi.svg"
grep -q 'BRANCH\\ufffdMISPRED' "$tmp/cpi.json" || fail "cpistack JSON: event name"
grep -q 'BRANCH&#xFFFD;MISPRED' "$tmp/cpi.svg" || fail "cpistack SVG: event name"

# estimate: a counter with 0xff and 0x02 in its name, a run label with 0xfe
sed '1s/cache-misses/cache\xff\x02-misses/; s/^TEST7,/TEST\xfe7,/' "$PMS_FIXTURES/estimate/sizes_runs.csv" > "$tmp/est.csv"
"$PMUSCOPE" estimate "$tmp/est.csv" --train 1-10 --test 50 --json --svg "$tmp/est.svg" > "$tmp/est.json"
json_ok "$tmp/est.json"
svg_ok "$tmp/est.svg"
grep -q 'cache\\ufffd\\u0002-misses' "$tmp/est.json" || fail "estimate JSON: counter name"
grep -q 'TEST\\ufffd7' "$tmp/est.json" || fail "estimate JSON: run label"
echo ok
