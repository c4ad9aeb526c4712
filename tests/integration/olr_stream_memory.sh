#!/usr/bin/env bash
# pmuscope olr reads its input a row at a time: the largest resident set (max RSS, from
# /usr/bin/time) at 2 million rows stays within a small margin of the one at 200,000 rows,
# for a CSV table and for a perf.data, with the segments, the samples and the JSON
# summary written (wm, the default, and opt with eps relative to the range: two passes).
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
for args in "--csv=segs.csv --samples=samples.csv" "--method opt --eps 0.01% --json=out.json --csv=segs.csv"; do
  small=$(rss $args small.csv)
  large=$(rss $args large.csv)
  echo "olr $args: max RSS $small KiB at 200k rows, $large KiB at 2M rows"
  [ "$large" -le $((small + margin)) ] || fail "olr $args: max RSS $large KiB at 2M rows, $small KiB at 200k"
done
# what was streamed is complete
[ "$(wc -l < samples.csv)" = 2000001 ] || fail "samples: $(wc -l < samples.csv) lines"
cmp -s <(tail -n +2 samples.csv) <(tail -n +2 large.csv) || fail "samples differ from the input"
grep -q '"samples": 2000000' out.json || fail "json: $(head -20 out.json)"
echo "olr_stream_memory: ok"
