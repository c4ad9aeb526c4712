#!/usr/bin/env bash
# pmuscope olr --store / --decode FILE on hostile segment files: truncated, a bad version,
# a bad varint, not a segment file: exit 1 and a message naming the file, the offset and
# what was expected; a usage error for --decode of a file without x and no --x-from.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }

printf 'x,a,b\n1,5,9\n3,8,9\n7,20,30\n8,21,31\n20,40,31\n' > s.csv
"$PMUSCOPE" olr --method opt --eps 1 --store s.olr s.csv > summary.txt
grep -Eq "^s.olr: [0-9]+ bytes: x [0-9]+, segments [0-9]+, residuals 0, predictive [0-9]+, header [0-9]+; [0-9]+ counters predictive, [0-9]+ segments, [0-9]+ joint, [0-9]+ points$" summary.txt ||
  fail "summary: $(cat summary.txt)"
size=$(stat -c %s s.olr)

expect() { # file, pattern
  set +e; "$PMUSCOPE" olr --decode "$1" > out.csv 2> err.txt; rc=$?; set -e
  [ "$rc" = 1 ] || fail "$1: exit $rc, expected 1 ($(cat err.txt))"
  grep -q "^pmuscope: $2" err.txt || fail "$1: message '$(cat err.txt)' lacks '$2'"
}
for n in 0 5 7 9 $((size / 2)) $((size - 1)); do
  head -c "$n" s.olr > trunc.olr
  expect trunc.olr "trunc.olr: offset [0-9]*.*: expected "
done
head -c $((size - 1)) s.olr > trunc.olr
expect trunc.olr "trunc.olr: offset [0-9]*: expected the chunk's stored bytes (the file is truncated)"
{ head -c 6 s.olr; printf '\x07'; tail -c +8 s.olr; } > version.olr
expect version.olr "version.olr: offset 6: expected version 1 to 5 (the versions this reader knows), found 7"
{ head -c 8 s.olr; printf '\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x00'; } > varint.olr
expect varint.olr "varint.olr: offset 8: expected the method (a bad varint: more than 64 bits)"
expect s.csv "s.csv: offset 0: expected the magic \"PMSOLR\" of an olr segment file"
expect missing.olr "cannot open missing.olr"

"$PMUSCOPE" olr --no-x --store nox.olr s.csv > /dev/null
set +e; "$PMUSCOPE" olr --decode nox.olr > /dev/null 2> err.txt; rc=$?; set -e
[ "$rc" = 1 ] && grep -q "nox.olr holds no x values (stored with --no-x): give the samples' x with --x-from" err.txt ||
  fail "no x: exit $rc, $(cat err.txt)"
set +e; "$PMUSCOPE" olr --x-from s.csv s.csv > /dev/null 2>&1; rc=$?; set -e
[ "$rc" = 2 ] || fail "--x-from without --decode: exit $rc"
# Counts near 2^63 and 2^64 - 1, from a CSV, through the segment file: at eps 0 the very
# samples, at eps 3 each within 3, checked with Perl's exact big integers.
perl -e 'my @b = ("9223372036854770000", "18446744073709540000"); print "x,a,b\n";
  use bigint; my ($x, $a, $c) = (18446744073000000000, $b[0], $b[1]);
  for my $i (1 .. 3000) { $x += 1 + ($i * 7919) % 1000; $a += ($i % 400 < 200 ? 90 : 3) + $i % 5;
    $c += ($i * 13) % 11; $c = 18446744073709551615 if $c > 18446744073709551615; print "$x,$a,$c\n" }' > big.csv
tail -1 big.csv | grep -q ',18446744073709551615$' || fail "big.csv does not reach 2^64 - 1: $(tail -1 big.csv)"
for eps in 0 3; do
  "$PMUSCOPE" olr --method opt --eps "$eps" --store big.olr big.csv > /dev/null
  "$PMUSCOPE" olr --decode big.olr > big_dec.csv
  perl -Mbigint -e 'open my $s, "<", $ARGV[0] or die; open my $d, "<", $ARGV[1] or die; my ($n, $worst) = (0, 0);
    <$s>; <$d>; while (my $l = <$s>) { my $m = <$d> // die "too few rows\n"; chomp($l, $m);
      my @a = split /,/, $l; my @b = split /,/, $m; die "x $b[0] != $a[0]\n" if $a[0] != $b[0];
      for my $j (1, 2) { my $e = abs($a[$j] - $b[$j]); $worst = $e if $e > $worst;
        die "x $a[0]: $b[$j] for $a[$j] (eps $ARGV[2])\n" if $e > $ARGV[2] } $n++ }
    die "too many rows\n" if defined <$d>; print "$n samples, worst $worst\n"' big.csv big_dec.csv "$eps" ||
    fail "near 2^64, eps $eps"
done
echo "olr store: ok"
