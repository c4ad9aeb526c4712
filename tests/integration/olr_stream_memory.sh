#!/usr/bin/env bash
# pmuscope olr reads its input a row at a time: the largest resident set (max RSS, from
# /usr/bin/time) at 2 million rows stays within a small margin of the one at 200,000 rows,
# for a CSV table and for a perf.data, with the segments, the samples and the JSON
# summary written (wm, the default, and opt with eps relative to the range: two passes), and
# with the segment file, the decoded samples and the charts (--store, --decode, --svg).
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }

table() { # rows: x and two counters (one noisy, one in steps), a jittered period
  awk -v n="$1" 'BEGIN { srand(7); print "x,instructions,faults"; x = 0; a = 0; b = 0
    for (i = 0; i < n; i++) { x += 10000 + int(rand() * 100); a += 5000 + int(rand() * 300)
      if (i % 1000 == 0) b += int(rand() * 50); printf "%.0f,%.0f,%.0f\n", x, a, b } }'
}
table 200000 > small.csv
table 2000000 > large.csv
rss() { # KiB
  /usr/bin/time -f %M -o rss.txt "$PMUSCOPE" olr "$@" > /dev/null
  cat rss.txt
}
margin=4096 # KiB; loading 2M rows whole took over 100 MiB
# The fewest-points store (the default for eps <= 31, here the faults counter) costs five
# times the greedy one's CPU on the flat step counter: the per-counter runs check its memory,
# the others take --joints greedy, so that the test stays well inside its time under ASan.
for args in "--csv=segs.csv --samples=samples.csv" "--method opt --eps 0.01% --json=out.json --csv=segs.csv" \
  "--method opt --eps 0.01% --joints greedy --decode dec.csv --svg c.svg" \
  "--method opt --per-counter --eps instructions=3000 --eps faults=2 --decode pdec0.csv --svg p.svg"; do
  small=$(rss $args small.csv)
  large=$(rss $args large.csv)
  echo "olr $args: max RSS $small KiB at 200k rows, $large KiB at 2M rows"
  [ "$large" -le $((small + margin)) ] || fail "olr $args: max RSS $large KiB at 2M rows, $small KiB at 200k"
done
# The segment file adds what its chunks take (up to 1 MiB of encoded bytes per part before
# zstd, and zstd's tables, larger at level 19): constant, but 200k rows do not fill a chunk, so these compare 1M
# rows with 2M.
head -1000001 large.csv > mid.csv
# (eps 0.01% of the range differs between 1M and 2M rows, and so may the encoding each counter
# gets: the first run sets it; predictive coding keeps up to 128 Ki samples a counter)
for args in "--method opt --eps 0.01% --joints greedy --store s.olr --level 3 --decode dec.csv --encoding predictive" \
  "--method opt --per-counter --eps instructions=3000 --eps faults=2 --store p.olr --level 3 --no-x --decode pdec.csv" \
  "--store w.olr --level 3"; do
  mid=$(rss $args mid.csv)
  large=$(rss $args large.csv)
  echo "olr $args: max RSS $mid KiB at 1M rows, $large KiB at 2M rows"
  [ "$large" -le $((mid + margin)) ] || fail "olr $args: max RSS $large KiB at 2M rows, $mid KiB at 1M"
done
# what was streamed is complete
[ "$(wc -l < samples.csv)" = 2000001 ] || fail "samples: $(wc -l < samples.csv) lines"
cmp -s <(tail -n +2 samples.csv) <(tail -n +2 large.csv) || fail "samples differ from the input"
grep -q '"samples": 2000000' out.json || fail "json: $(head -20 out.json)"
# the decoded samples written as the fit went are the segment file's, and within eps
for f in dec pdec pdec0; do [ "$(wc -l < $f.csv)" = 2000001 ] || fail "$f.csv: $(wc -l < $f.csv) lines"; done
"$PMUSCOPE" olr --decode s.olr -o sdec.csv
cmp -s dec.csv sdec.csv || fail "--decode differs from the decoded --store file"
"$PMUSCOPE" olr --decode p.olr --x-from large.csv -o psdec.csv
cmp -s pdec.csv psdec.csv || fail "--per-counter: --decode differs from the decoded --store file"
eps=$(awk '/^instructions/ { print $2 }' < <("$PMUSCOPE" olr --method opt --eps 0.01% large.csv))
paste -d, large.csv dec.csv | awk -F, -v e="$eps" 'NR > 1 { d = $2 - $5; if (d < 0) d = -d; if ($1 != $4 || d > e + 0) bad++ }
  END { exit bad > 0 }' || fail "decoded samples off by more than eps $eps or at another x"
grep -q "<polyline" c.svg && grep -q "<circle" c.svg || fail "svg lacks lines or points"
echo "olr_stream_memory: ok"
