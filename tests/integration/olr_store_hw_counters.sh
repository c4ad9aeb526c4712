#!/usr/bin/env bash
# The olr segment file's storage goal on real hardware counters: at eps = 0.1% of each
# counter's range, the counters' part of the file is at least 10x smaller than zstd -19 of
# the same counters delta-encoded (8-byte differences), on the Cortex-A15 cBench excerpts
# (tests/fixtures/armpm: 500 intervals of perf stat -I 500 of each event list, 7 events,
# made cumulative here), and every sample decodes within its eps at its own x. And the goals
# where the counters climb by 10^5 to 10^9 an interval (predictive coding, version 2 of the
# file): at eps = 1 count the whole file is smaller than zstd -19 of x and the counters
# delta-encoded (8-byte differences, column after column, as bench/bench-olr-format.sh),
# lossless (--lossless, eps 0) it is within 10% of that, and both decode as they promise.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }

for l in 1 2; do
  # perf stat -I lines (seconds, count, event) -> x (ns), each event's cumulative count
  awk '/^Event/ || /^Start/ { next }
    NF == 3 { if (!($3 in seen)) { seen[$3] = 1; order[++ne] = $3 }
              if ($1 != last && last != "") flush(); last = $1; cnt[$3] += $2 }
    function flush(  i, r) { r = sprintf("%.0f", last * 1e9); for (i = 1; i <= ne; i++) r = r "," sprintf("%.0f", cnt[order[i]]); rows[++nr] = r }
    END { flush(); h = "x"; for (i = 1; i <= ne; i++) h = h "," order[i]; print h; for (i = 1; i <= nr; i++) print rows[i] }' \
    "$PMS_FIXTURES/armpm/events_list_$l-run1-2GHz-500.data" > a15.csv
  [ "$(wc -l < a15.csv)" = 501 ] || fail "list $l: $(wc -l < a15.csv) lines"
  zy=$(perl -e 'my @col; <STDIN>; while (<STDIN>) { chomp; my @f = split /,/; push @{$col[$_ - 1]}, $f[$_] for 1..$#f }
    binmode STDOUT; for my $c (@col) { my $p = 0; for my $v (@$c) { print pack("q<", $v - $p); $p = $v } }' < a15.csv |
    zstd -19 -q -c | wc -c)
  "$PMUSCOPE" olr --method opt --eps 0.1% --per-counter --store a15.olr a15.csv > out.txt
  read -r y r < <(sed -nE 's/^a15.olr: .* segments ([0-9]+), residuals ([0-9]+), predictive ([0-9]+).*/\1 \2+\3/p' out.txt)
  r=$((r))
  [ -n "$y" ] || fail "list $l: no summary: $(cat out.txt)"
  echo "list $l: counters $((y + r)) bytes, delta+zstd -19 $zy bytes"
  [ $(((y + r) * 10)) -le "$zy" ] || fail "list $l: the counters' part $((y + r)) bytes is not 10x below zstd's $zy"
  # each sample within 0.1% of its counter's range (the eps the file was written with)
  "$PMUSCOPE" olr --decode a15.olr > dec.csv
  paste -d, a15.csv dec.csv | awk -F, 'NR == 1 { k = (NF - 2) / 2; next }
    { for (c = 2; c <= k + 1; c++) { y[NR, c] = $c; d[NR, c] = $(c + k + 1); if (NR == 2) lo[c] = $c; hi[c] = $c }
      if ($1 != $(k + 2)) bad = "x " $1 " decoded as " $(k + 2) }
    END { for (r = 2; r <= NR; r++) for (c = 2; c <= k + 1; c++) { e = y[r, c] - d[r, c]; if (e < 0) e = -e
            if (e > (hi[c] - lo[c]) / 1000) bad = "row " r " column " c ": " d[r, c] " for " y[r, c] }
          if (bad != "") { print bad; exit 1 } }' || fail "list $l: decoded beyond eps"
  zxy=$(perl -e 'my @col; <STDIN>; while (<STDIN>) { chomp; my @f = split /,/; push @{$col[$_]}, $f[$_] for 0..$#f }
    binmode STDOUT; for my $c (@col) { my $p = 0; for my $v (@$c) { print pack("q<", $v - $p); $p = $v } }' < a15.csv |
    zstd -19 -q -c | wc -c)
  for mode in eps1 lossless; do
    if [ $mode = eps1 ]; then args=(--eps 1); e=1; else args=(--eps 0 --lossless); e=0; fi
    "$PMUSCOPE" olr --method opt "${args[@]}" --store $mode.olr a15.csv > out.txt
    t=$(stat -c %s $mode.olr)
    grep -q "^$mode.olr: $t bytes: " out.txt || fail "list $l, $mode: the summary says $(cat out.txt)"
    echo "list $l, $mode: file $t bytes, delta+zstd -19 of x and the counters $zxy bytes"
    if [ $mode = eps1 ]; then [ "$t" -lt "$zxy" ] || fail "list $l: eps 1: $t bytes, not below zstd's $zxy"
    else [ $((t * 100)) -le $((zxy * 110)) ] || fail "list $l: lossless: $t bytes, more than 10% above zstd's $zxy"; fi
    "$PMUSCOPE" olr --decode $mode.olr > dec.csv
    paste -d, a15.csv dec.csv | awk -F, -v e=$e 'NR > 1 { k = (NF - 2) / 2; if ($1 != $(k + 2)) bad = "x " $1
        for (c = 2; c <= k + 1; c++) { d = $c - $(c + k + 1); if (d < 0) d = -d; if (d > e) bad = "row " NR " column " c ": " $(c + k + 1) " for " $c } }
      END { if (bad != "") { print bad; exit 1 } }' || fail "list $l, $mode: decoded beyond eps $e"
  done
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
