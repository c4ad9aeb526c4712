#!/usr/bin/env bash
# Every reader of every command fed /dev/zero, /dev/urandom and endless pipes (yes, cat
# /dev/zero, cat /dev/urandom): each exits 1 with one message naming the input, having
# used under 1 s of CPU (what the machine's load cannot change, unlike wall time), under
# 64 MiB of memory beyond what the same binary takes to refuse a small bad file, read under
# 16 MiB and written under 1 MiB (no spool grew): it looked at the input's head before it
# swallowed the rest. Before, report -i /dev/zero spooled 1.7 GB to $TMPDIR in 4 s and never
# ended, olr --decode /dev/zero held 2.8 GB, phase --pc /dev/stdin < yes grew without end.
# Then the input limit: a valid perf.data stream longer than --input-limit is refused with
# a message naming the limit. Measures: tests/lib/bounded.py (wait4 and /proc/self/io).
set -uo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PMS=$PMUSCOPE
F=$PMS_FIXTURES
bounded=$PMS_SOURCE_DIR/tests/lib/bounded.py
failures=0
bad() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The memory the binary takes to refuse a small bad file (ASan's shadow included).
printf 'not a segment file\n' >"$tmp/small"
base=$(python3 "$bounded" none "$PMS" olr --decode "$tmp/small")
base_kib=$(head -1 <<<"$base" | cut -d' ' -f3)
[ "$base_kib" -gt 0 ] || { echo "FAIL: no baseline"; exit 1; }

# A segment file without x (for --x-from), and valgrind's truth of a short loop (hotspot).
"$PMS" olr --method opt --eps 1 --no-x --store "$tmp/nox.olr" "$F/olr/group.data" >/dev/null || bad "olr --no-x"
printf 'volatile unsigned long sink;\nint main(void) { for (unsigned long i = 0; i < 1000000; i++) sink += i; return 0; }\n' >"$tmp/loop.c"
${CC:-cc} -O1 -g -o "$tmp/hloop" "$tmp/loop.c" || { echo "FAIL: cc"; exit 1; }
"$PMS" hotspot --record-truth "$tmp/truth" -- "$tmp/hloop" >/dev/null 2>&1 || { echo "FAIL: --record-truth"; exit 1; }

# Every input option of every command; IN stands for the input.
readers=(
    "report -i IN"
    "report IN"
    "report --pprof-input IN"
    "report IN $F/olr/group.data"
    "diff IN $F/olr/group.data"
    "diff $F/olr/group.data IN"
    "olr IN"
    "olr --method opt --eps 1% IN"
    "olr --decode IN"
    "olr --decode $tmp/nox.olr --x-from IN"
    "phase IN"
    "phase --format perf IN"
    "phase --format simpoint IN"
    "phase --pc IN $F/bbv/two.bb"
    "phase --truth IN $F/bbv/two.bb"
    "cpistack IN"
    "cpistack --windows IN $F/armpm/cbench-excerpt.tsv"
    "estimate IN"
    "estimate --windows IN $F/estimate/armpm_intervals_excerpt.tsv"
    "hotspot --truth $tmp/truth IN"
)

# endless SOURCE NAME READER: READER with IN the input NAME, fed by SOURCE (bounded.py).
endless() {
    local source=$1 name=$2 reader=${3//IN/$2}
    local out rc cpu rss rchar wchar
    # shellcheck disable=SC2086 # the reader's words
    out=$(python3 "$bounded" "$source" "$PMS" $reader)
    read -r rc cpu rss rchar wchar <<<"$(head -1 <<<"$out")"
    local err msg
    err=$(tail -n +2 <<<"$out")
    msg=$(grep '^pmuscope: ' <<<"$err" | tail -1)
    local what="$reader < $source"
    [ "$rc" = 1 ] || bad "$what: exit $rc, expected 1: $err"
    local named=$name
    [ "$name" = - ] && [[ $reader = "report -i"* ]] && named=stdin # the perf.data reader's name for it, as perf's
    [ -n "$msg" ] && grep -qF -- "$named" <<<"$msg" || bad "$what: the message does not name $named: $err"
    python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < 1.0 else 1)" "$cpu" || bad "$what: $cpu s of CPU"
    [ "$rss" -lt $((base_kib + 65536)) ] || bad "$what: $rss KiB resident (baseline $base_kib KiB)"
    [ "$rchar" -lt $((16 << 20)) ] || bad "$what: read $rchar bytes"
    [ "$wchar" -lt $((1 << 20)) ] || bad "$what: wrote $wchar bytes"
    echo "ok: $what: ${cpu}s, ${rss} KiB, read $rchar, wrote $wchar: ${msg:0:120}"
}

for reader in "${readers[@]}"; do
    endless none /dev/zero "$reader"
    endless none /dev/urandom "$reader"
    for source in yes zero urandom; do endless "$source" /dev/stdin "$reader"; done
done
# "-" where a command takes it for standard input
for reader in "report -i IN" "report --pprof-input IN" "olr IN" "olr --decode IN" "phase IN" "cpistack IN"; do
    endless yes - "$reader"
done

# The input limit: a perf.data stream that is what it says, longer than the limit, is
# refused naming the limit; under the limit the same stream is read.
"$PMS" record -e cpu-clock -c 100000 -o - -- "$PMS_WORKLOADS/loop" 30000000 >"$tmp/pipe.data" 2>/dev/null ||
    bad "record -o -"
size=$(stat -c %s "$tmp/pipe.data")
[ "$size" -gt 8192 ] || bad "record -o - wrote $size bytes"
cat "$tmp/pipe.data" | "$PMS" report --input-limit 4K -i - >/dev/null 2>"$tmp/err" && bad "--input-limit 4K: exit 0"
grep -q '^pmuscope: stdin: longer than the input limit of 4 KiB: .* (--input-limit)$' "$tmp/err" ||
    bad "--input-limit 4K: $(cat "$tmp/err")"
cat "$tmp/pipe.data" | "$PMS" report --input-limit "$size" -i - >/dev/null 2>"$tmp/err" ||
    bad "--input-limit $size (the stream's size): $(cat "$tmp/err")"
cat "$tmp/pipe.data" | "$PMS" olr --input-limit 4K - >/dev/null 2>"$tmp/err" && bad "olr --input-limit 4K: exit 0"
grep -q 'longer than the input limit of 4 KiB' "$tmp/err" || bad "olr --input-limit 4K: $(cat "$tmp/err")"
"$PMS" report --input-limit 4K -i "$tmp/pipe.data" >/dev/null 2>"$tmp/err" ||
    bad "a file is read whatever the limit: $(cat "$tmp/err")"
"$PMS" report --input-limit lots -i - </dev/null >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q -- '--input-limit lots: expected a size' "$tmp/err" || bad "--input-limit lots: $(cat "$tmp/err")"

[ $failures -eq 0 ] || { echo "$failures readers took more than they should"; exit 1; }
echo "endless_inputs: ok"
