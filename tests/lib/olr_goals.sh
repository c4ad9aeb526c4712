# The storage goals of the olr segment file (issue 16, docs/olr-format.md) on one stream of
# real hardware counters, checked against zstd -19 of the same samples delta-encoded (8-byte
# little-endian differences, column after column, as bench/bench-olr-format.sh):
#   at eps = 0.1% of each counter's range (--per-counter), the counters' part of the file is
#     at least 10x smaller than delta+zstd of the counters;
#   at eps = 1 count, the whole file is smaller than delta+zstd of x and the counters;
#   lossless (--lossless, eps 0), the whole file is within 10% of it;
# and each file decodes every sample at its own x within its eps.
# Sourced by a test that defines fail and sets PMUSCOPE; works in the current directory.
#   olr_goals LABEL CSV     (CSV: x and the counters, a header line, whole counts)

# delta+zstd -19 bytes of CSV's columns FIRST.. (0: x and the counters, 1: the counters)
olr_goals_zstd() {
    perl -e 'my $first = shift; my @col; <STDIN>;
      while (<STDIN>) { chomp; my @f = split /,/; push @{$col[$_ - $first]}, $f[$_] for $first..$#f }
      binmode STDOUT; for my $c (@col) { my $p = 0; for my $v (@$c) { print pack("q<", $v - $p); $p = $v } }' "$1" < "$2" |
        zstd -19 -q -c | wc -c
}

# Fails unless every sample of CSV decodes from FILE at its own x within E counts, or within
# a thousandth of its counter's range when E is "range".
olr_goals_decoded() {
    "$PMUSCOPE" olr --decode "$2" > olr_goals_dec.csv || fail "$1: --decode $2"
    paste -d, "$3" olr_goals_dec.csv | awk -F, -v e="$4" '
        NR == 1 { k = (NF - 2) / 2; next }
        { if ($1 != $(k + 2)) bad = "row " NR ": x " $1 " decoded as " $(k + 2)
          for (c = 2; c <= k + 1; c++) { y[NR, c] = $c; d[NR, c] = $(c + k + 1); if (NR == 2) lo[c] = $c; hi[c] = $c } }
        END { for (r = 2; r <= NR; r++) for (c = 2; c <= k + 1; c++) {
                  bound = e == "range" ? (hi[c] - lo[c]) / 1000 : e
                  err = y[r, c] - d[r, c]; if (err < 0) err = -err
                  if (err > bound) bad = "row " r " column " c ": " d[r, c] " for " y[r, c] " (eps " bound ")" }
              if (bad != "") { print bad; exit 1 } }' || fail "$1: $2 decodes beyond eps $4"
}

olr_goals() {
    local label=$1 csv=$2 zy zxy y r t
    zy=$(olr_goals_zstd 1 "$csv")
    zxy=$(olr_goals_zstd 0 "$csv")
    "$PMUSCOPE" olr --method opt --eps 0.1% --per-counter --store olr_goals.olr "$csv" > olr_goals.txt ||
        fail "$label: olr --store: $(cat olr_goals.txt)"
    read -r y r < <(sed -nE 's/^olr_goals.olr: .* segments ([0-9]+), residuals ([0-9]+), predictive ([0-9]+).*/\1 \2+\3/p' olr_goals.txt)
    [ -n "$y" ] || fail "$label: no summary: $(cat olr_goals.txt)"
    r=$((r))
    echo "$label: eps 0.1%: counters $((y + r)) bytes, delta+zstd -19 $zy bytes"
    [ $(((y + r) * 10)) -le "$zy" ] || fail "$label: the counters' part $((y + r)) bytes is not 10x below zstd's $zy"
    olr_goals_decoded "$label" olr_goals.olr "$csv" range
    for mode in eps1 lossless; do
        if [ $mode = eps1 ]; then args=(--eps 1); e=1; else args=(--eps 0 --lossless); e=0; fi
        "$PMUSCOPE" olr --method opt "${args[@]}" --store $mode.olr "$csv" > olr_goals.txt ||
            fail "$label: olr --store ($mode): $(cat olr_goals.txt)"
        t=$(stat -c %s $mode.olr)
        grep -q "^$mode.olr: $t bytes: " olr_goals.txt || fail "$label, $mode: the summary says $(cat olr_goals.txt)"
        echo "$label, $mode: file $t bytes, delta+zstd -19 of x and the counters $zxy bytes"
        if [ $mode = eps1 ]; then [ "$t" -lt "$zxy" ] || fail "$label: eps 1: $t bytes, not below zstd's $zxy"
        else [ $((t * 100)) -le $((zxy * 110)) ] || fail "$label: lossless: $t bytes, more than 10% above zstd's $zxy"; fi
        olr_goals_decoded "$label" $mode.olr "$csv" $e
    done
}
