#!/usr/bin/env bash
# The olr segment file's storage goals on real hardware counters (tests/lib/olr_goals.sh):
# at eps = 0.1% of each counter's range the counters' part at least 10x smaller than zstd -19
# of the same counters delta-encoded, at eps = 1 count the whole file smaller than delta+zstd
# of x and the counters, lossless within 10% of it, every sample decoded within eps at its
# own x; on the Cortex-A15 cBench excerpts (tests/fixtures/armpm: 500 intervals of perf stat
# -I 500 of each event list, 7 events, made cumulative here), where the counters climb by
# 10^5 to 10^9 an interval (predictive coding, version 2 of the file and later). The writer's
# choice of encoding is no larger than either forced alone. (The same goals on streams
# recorded from the bundled workloads with the emulated PMU: tests/pmu/cases/olr_store.sh.)
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/olr_goals.sh"

for l in 1 2; do
  # perf stat -I lines (seconds, count, event) -> x (ns), each event's cumulative count
  awk '/^Event/ || /^Start/ { next }
    NF == 3 { if (!($3 in seen)) { seen[$3] = 1; order[++ne] = $3 }
              if ($1 != last && last != "") flush(); last = $1; cnt[$3] += $2 }
    function flush(  i, r) { r = sprintf("%.0f", last * 1e9); for (i = 1; i <= ne; i++) r = r "," sprintf("%.0f", cnt[order[i]]); rows[++nr] = r }
    END { flush(); h = "x"; for (i = 1; i <= ne; i++) h = h "," order[i]; print h; for (i = 1; i <= nr; i++) print rows[i] }' \
    "$PMS_FIXTURES/armpm/events_list_$l-run1-2GHz-500.data" > a15.csv
  [ "$(wc -l < a15.csv)" = 501 ] || fail "list $l: $(wc -l < a15.csv) lines"
  olr_goals "list $l" a15.csv
  # the writer's choice is no larger than either encoding forced alone
  for enc in segments predictive; do
    "$PMUSCOPE" olr --method opt --eps 1 --encoding $enc --store $enc.olr a15.csv > /dev/null
    [ "$(stat -c %s eps1.olr)" -le "$(stat -c %s $enc.olr)" ] ||
      fail "list $l: eps 1: $(stat -c %s eps1.olr) bytes, more than with --encoding $enc ($(stat -c %s $enc.olr))"
  done
  # --decode OUT INPUT without --store: the segments' values, as a file of --encoding segments
  "$PMUSCOPE" olr --method opt --eps 1 --decode fit.csv a15.csv > /dev/null
  "$PMUSCOPE" olr --decode segments.olr > seg.csv
  cmp -s fit.csv seg.csv || fail "list $l: --decode without --store differs from the segments file's"
done
echo "olr_store_hw_counters: ok"
