#!/usr/bin/env bash
# Every text format through the one line reader, from the command line: a byte-order
# mark, a repeated header, devices, long lines, NUL bytes, a fixed-shape file cut short,
# inf and negative counts; each refusal names the file and line.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$PMUSCOPE
F=$PMS_FIXTURES/bbv

# expect_error STATUS MESSAGE COMMAND...: fails unless the command exits STATUS with MESSAGE
expect_error() {
  local want=$1 msg=$2 status=0
  shift 2
  timeout 60 "$@" >"$tmp/out" 2>"$tmp/err" || status=$?
  if [ "$status" -ne "$want" ] || ! grep -qF -- "$msg" "$tmp/err"; then
    echo "FAIL: $* exited $status (expected $want), stderr:" >&2
    cat "$tmp/err" >&2
    echo "expected: $msg" >&2
    exit 1
  fi
}

table='cycles,instructions,cache-misses\n100,50,1\n200,90,3\n300,160,2\n400,220,5\n'
printf "$table" >"$tmp/plain.csv"
printf "\xef\xbb\xbf$table" >"$tmp/bom.csv"
$P cpistack "$tmp/plain.csv" >"$tmp/plain.out"
$P cpistack "$tmp/bom.csv" >"$tmp/bom.out"
cmp "$tmp/plain.out" "$tmp/bom.out" # the BOM is dropped, nothing else changes

printf 'cycles,instructions,cache-misses\n100,50,1\ncycles,instructions,cache-misses\n300,160,2\n400,220,5\n' >"$tmp/rep.csv"
expect_error 1 "rep.csv:3:1: column 'cycles': the header line repeats here (row 2)" $P cpistack "$tmp/rep.csv"
printf 'cycles,instructions,cache-misses\n100,50,1\n200,90,3\ninf,160,2\n400,220,5\n' >"$tmp/inf.csv"
expect_error 1 "inf.csv:4: column 'cycles': expected a count (0 or more), found inf" $P cpistack "$tmp/inf.csv"
printf 'cycles,instructions,cache-misses\n100,50,1\n-5,90,3\n300,160,2\n400,220,5\n' >"$tmp/neg.csv"
expect_error 1 "neg.csv:3: column 'cycles': expected a count (0 or more), found -5, a negative count" \
  $P cpistack "$tmp/neg.csv"
printf 'cycles,instructions,cache-misses\n100,50,1\n20\00,90,3\n' >"$tmp/nul.csv"
expect_error 1 "nul.csv: line 3: byte offset 44: NUL byte, expected text" $P cpistack "$tmp/nul.csv"

# Devices are refused before anything is read (these hung or ran out of memory).
expect_error 1 "/dev/zero: a character device, not a regular file or a pipe" \
  $P phase --truth /dev/zero "$F/two.bb"
expect_error 1 "/dev/zero: a character device, not a regular file or a pipe" $P olr /dev/zero
# ... and a pipe is read
$P cpistack /dev/stdin <"$tmp/bom.csv" >/dev/null
cat "$tmp/bom.csv" | $P cpistack /dev/stdin >"$tmp/pipe.out"
cmp "$tmp/plain.out" "$tmp/pipe.out"

# Truth schedules: a comment longer than the old 512-byte line buffer stays one line
{
  printf '# %0600d\n' 0
  printf '0 1000 A\n1000 2000 B\n2000 -5 C\n'
} >"$tmp/truth.txt"
expect_error 1 "truth.txt: line 4: expected \"start_ns end_ns label [tid]\"" $P phase --truth "$tmp/truth.txt" "$F/two.bb"

# Fixed-shape files cut short: the last line lacks its newline.
# (a file that stops inside its 3rd vector line would otherwise read as a shorter vector)
{ head -n 2 "$F/two.bb"; sed -n 3p "$F/two.bb" | head -c 6; } >"$tmp/cut.bb"
expect_error 1 "cut.bb: line 3: ends without a newline: the file was cut short" $P phase "$tmp/cut.bb"
head -c -1 "$F/two.pc" >"$tmp/cut.pc"
expect_error 1 "cut.pc: line $(wc -l <"$F/two.pc"): ends without a newline" $P phase --pc "$tmp/cut.pc" "$F/two.bb"
echo "hostile text inputs refused with file and line"
