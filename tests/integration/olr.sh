#!/usr/bin/env bash
# pmuscope olr on a perf.data recorded by perf (group read of cpu-clock, page-faults,
# context-switches) and on CSV tables: samples cross-checked against perf script, the
# hand-computed wm example, opt's bound, decoding, SVG, JSON, and bad input.
set -euo pipefail
fx=$PMS_FIXTURES/olr
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }

grep -q -- "--method" <("$PMUSCOPE" olr --help) || fail "--help"
set +e; "$PMUSCOPE" olr --bogus "$fx/group.data" 2>/dev/null; rc=$?; set -e
[ "$rc" = 2 ] || fail "a bad option should exit 2, got $rc"

# The samples read from perf.data equal perf script's running sums of the group deltas.
"$PMUSCOPE" olr --samples samples.csv --csv=segs.csv "$fx/group.data" > summary.txt
head -1 samples.csv | grep -qx "cpu-clock,page-faults,context-switches" || fail "samples header: $(head -1 samples.csv)"
perf script -i "$fx/group.data" -F event,period 2>/dev/null | awk '
  /cpu-clock:/ { if (n++) print x "," pf + 0 "," cs + 0; x += $1; next }
  /page-faults:/ { pf += $1; next }
  /context-switches:/ { cs += $1; next }
  END { print x "," pf + 0 "," cs + 0 }' > perf.csv
tail -n +2 samples.csv | diff - perf.csv > /dev/null || fail "samples differ from perf script's running sums"
[ "$(wc -l < perf.csv)" -gt 50 ] || fail "too few samples"
grep -q "^page-faults " summary.txt || fail "summary: $(cat summary.txt)"

# The same stream from the CSV gives the same segments.
"$PMUSCOPE" olr --csv=segs2.csv samples.csv > /dev/null
diff segs.csv segs2.csv > /dev/null || fail "perf.data and CSV input differ"

# The paper's procedure on the hand-computed example (tests/unit/test_olr_wm.c): 4 lines.
"$PMUSCOPE" olr --csv=paper.csv "$fx/paper_example.csv" > /dev/null
[ "$(tail -n +2 paper.csv | cut -d, -f2-5 | tr '\n' ' ')" = "0,4,1,4 3,2,4,5 4,4,5,8 7,3,8,10 " ] ||
  fail "wm segments: $(cat paper.csv)"

# opt: the error never exceeds eps, and it keeps no more segments than wm at wm's own error.
"$PMUSCOPE" olr --json --csv=wm.csv samples.csv > wm.json
wm_err=$(awk -F': ' '/"name": "page-faults"/ { p = 1 } p && /max_abs_error/ { sub(",", "", $2); print int($2); exit }' wm.json)
[ -n "$wm_err" ] || fail "no max_abs_error in $(cat wm.json)"
"$PMUSCOPE" olr --json --method opt --eps 2step --eps "page-faults=$wm_err" --csv=opt.csv --decode dec.csv \
  --svg olr.svg samples.csv > opt.json
awk -v eps="$wm_err" -F': ' '/"name": "page-faults"/ { p = 1 } p && /max_abs_error/ { sub(",", "", $2);
  if ($2 + 0 > eps + 0) exit 1; exit 0 }' opt.json || fail "opt error above eps $wm_err: $(cat opt.json)"
seg() { grep -c "^page-faults," "$1"; }
[ "$(seg opt.csv)" -le "$(seg wm.csv)" ] || fail "opt kept more page-faults segments than wm"
[ "$(head -1 dec.csv)" = "$(head -1 samples.csv)" ] && [ "$(wc -l < dec.csv)" = "$(wc -l < samples.csv)" ] ||
  fail "decode: $(head -2 dec.csv)"
grep -q "<polyline" olr.svg && grep -q "<circle" olr.svg || fail "svg lacks lines or points"

# Bad input: clear messages naming the file and the place.
expect_error() { # file, pattern
  set +e; "$PMUSCOPE" olr "$1" > /dev/null 2> err.txt; rc=$?; set -e
  [ "$rc" = 1 ] || fail "$1: exit $rc, expected 1"
  grep -q "$2" err.txt || fail "$1: message '$(cat err.txt)' lacks '$2'"
}
printf 'x,y\n1,10\n3,20\n2,30\n' > backwards.csv
expect_error backwards.csv "backwards.csv.*x = 2 after x = 3: x must increase strictly"
printf 'x,y\n1,10\n2,nan\n3,30\n' > nan.csv
expect_error nan.csv "nan.csv.*NaN"
printf 'x,y\n' > empty.csv
expect_error empty.csv "empty.csv"
printf 'x,y\n1,10\n' > single.csv
expect_error single.csv "single.csv.*a single sample"
expect_error "$fx/noread.data" "noread.data: samples carry no counter values"
head -c 3000 "$fx/group.data" > trunc.data
expect_error trunc.data "trunc.data: offset .*truncated"
expect_error missing.data "cannot open missing.data"
# A counter name with a comma (pmu/event=..,umask=../) stays one CSV field; a full disk fails.
printf 'x,"cpu/event=0x3c,umask=0/",y\n1,2,3\n2,4,6\n3,6,9\n' > comma.csv
"$PMUSCOPE" olr --csv=comma_segs.csv --decode comma_dec.csv --samples comma_s.csv comma.csv > /dev/null
grep -qx '"cpu/event=0x3c,umask=0/",0,3,1,3,2,6,2,0' comma_segs.csv || fail "segments: $(cat comma_segs.csv)"
cmp -s comma.csv comma_dec.csv || fail "decode: $(cat comma_dec.csv)"
cmp -s comma.csv comma_s.csv || fail "samples: $(cat comma_s.csv)"
set +e; "$PMUSCOPE" olr --csv=/dev/full comma.csv > /dev/null 2> err.txt; rc=$?; set -e
[ "$rc" = 1 ] && grep -q "cannot write /dev/full" err.txt || fail "full disk: exit $rc, $(cat err.txt)"
# Nothing is written to the current directory unless asked; -o takes the summary,
# --json=FILE the JSON beside it, --csv alone puts the segments on the main output.
mkdir quiet && (cd quiet && "$PMUSCOPE" olr "$tmp/comma.csv" > ../quiet.txt)
[ -z "$(ls -A quiet)" ] || fail "olr wrote $(ls quiet) unasked"
"$PMUSCOPE" olr -o summary2.txt --json=summary2.json "$tmp/comma.csv" > stdout2.txt
[ ! -s stdout2.txt ] && cmp -s summary2.txt quiet.txt || fail "-o: $(cat stdout2.txt)"
grep -q '"reduction"' summary2.json || fail "--json=FILE: $(cat summary2.json)"
"$PMUSCOPE" olr --csv comma.csv | cmp -s - comma_segs.csv || fail "--csv on stdout"
echo "olr: ok"
