#!/usr/bin/env bash
# Every output of every command written to /dev/full (ENOSPC at the flush or close):
# pmuscope exits 1 and says once "pmuscope: cannot write NAME: No space left on device"
# (NAME the file, or standard output). Each command runs as
# "$PMS" ... >"$stdout" 2>"$err" so that only pmuscope's own stdout goes to /dev/full where
# the case asks for it; this script's output is untouched.
set -uo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PMS=$PMUSCOPE
fx=$PMS_FIXTURES
err=$tmp/err
enospc="No space left on device"
failures=0

# check NAME RC CMD...: the run just made must have exited 1, and the message must be its one
# "pmuscope:" line, last on stderr (stat's text report may come before it there).
check() {
    local name=$1 rc=$2
    shift 2
    local want="pmuscope: cannot write $name: $enospc"
    if [ "$rc" -ne 1 ] || [ "$(tail -n 1 "$err")" != "$want" ] || [ "$(grep -c '^pmuscope:' "$err")" -ne 1 ]; then
        echo "FAIL (exit $rc, wanted 1 and \"$want\"): $*"
        sed 's/^/    stderr: /' "$err"
        failures=$((failures + 1))
    else
        echo "ok: $*"
    fi
}
# to_stdout CMD...: pmuscope's stdout is /dev/full.
to_stdout() {
    "$PMS" "$@" >/dev/full 2>"$err"
    check "standard output" $? "$@" ">/dev/full"
}
# to_file CMD...: a file option of CMD names /dev/full; stdout goes to a scratch file.
to_file() {
    "$PMS" "$@" >"$tmp/stdout" 2>"$err"
    check /dev/full $? "$@"
}

to_stdout --version
to_stdout --help
to_stdout list
to_stdout list --json

to_file stat -e task-clock -o /dev/full -- true
to_file stat -e task-clock --json=/dev/full -- true
to_file stat -e task-clock --json -o /dev/full -- true
to_file stat -e task-clock -x, -o /dev/full -- true
to_file stat -e task-clock -I 100 --wide -o /dev/full -- sleep 0.3
to_stdout stat -e task-clock --json -- true
# stat's default report goes to stderr: when that is full nothing more can be said there,
# but the exit status says it.
"$PMS" stat -e task-clock -- true >"$tmp/stdout" 2>/dev/full; rc=$?
if [ $rc -ne 1 ]; then echo "FAIL (exit $rc, wanted 1): stat 2>/dev/full"; failures=$((failures + 1));
else echo "ok: stat 2>/dev/full"; fi

"$PMS" record -e cpu-clock -c 200000 -o "$tmp/p.data" -- "$PMS_WORKLOADS/loop" 20000000 >/dev/null 2>&1 ||
    { echo "FAIL: record"; exit 1; }
data=(-i "$tmp/p.data")
to_file record -e cpu-clock -o "$tmp/j.data" --json=/dev/full -- true
to_stdout record -e cpu-clock -o "$tmp/j.data" --json -- true
to_stdout report "${data[@]}"
to_stdout report "${data[@]}" --json
to_stdout report "${data[@]}" --csv
to_stdout report "${data[@]}" -s ip
to_stdout report "${data[@]}" -s dso
to_file report "${data[@]}" -o /dev/full
to_file report "${data[@]}" --json=/dev/full
to_file report "${data[@]}" --csv=/dev/full
to_file report "${data[@]}" --html /dev/full
pair=("$tmp/p.data" "$tmp/p.data")
to_stdout diff "${pair[@]}"
to_stdout diff "${pair[@]}" --json
to_stdout diff "${pair[@]}" --csv
to_file diff "${pair[@]}" -o /dev/full
to_file diff "${pair[@]}" --json=/dev/full
to_file diff "${pair[@]}" --csv=/dev/full
to_file diff "${pair[@]}" --html /dev/full

runs=("$fx/estimate/sizes_runs.csv" --train 1-8 --test 9,50)
to_stdout estimate "${runs[@]}"
to_stdout estimate "${runs[@]}" --json
to_stdout estimate "${runs[@]}" --csv
to_file estimate "${runs[@]}" -o /dev/full
to_file estimate "${runs[@]}" --json=/dev/full
to_file estimate "${runs[@]}" --csv=/dev/full
to_file estimate "${runs[@]}" --svg /dev/full
to_file estimate "${runs[@]}" --write-runs /dev/full
to_file estimate "${runs[@]}" --method lp --write-lp /dev/full

bb=$fx/bbv/two.bb
to_stdout phase "$bb"
to_stdout phase --json "$bb"
to_stdout phase --csv "$bb"
to_file phase -o /dev/full "$bb"
to_file phase --json=/dev/full "$bb"
to_file phase --csv=/dev/full "$bb"
to_file phase --svg /dev/full "$bb"
to_file phase --write-bb /dev/full "$bb"

olr=$fx/olr/group.data
to_stdout olr "$olr"
to_stdout olr --json "$olr"
to_file olr -o /dev/full "$olr"
to_file olr --json=/dev/full "$olr"
to_file olr --csv=/dev/full "$olr"
to_file olr --decode /dev/full "$olr"
to_file olr --samples /dev/full "$olr"
to_file olr --svg /dev/full "$olr"
# the segment file, written while the fit streams (said once: the failed write, not again at
# its close), on a recording of Debian's xz
seq 1 20000 > "$tmp/xz.in"
"$PMS" record -e cpu-clock -c 100000 --read page-faults -o "$tmp/xz.data" -- xz -c -T1 "$tmp/xz.in" >/dev/null 2>&1 ||
    { echo "FAIL: record xz"; exit 1; }
to_file olr --store /dev/full "$tmp/xz.data"
to_file olr --method opt --eps 1 --store /dev/full "$tmp/xz.data"
to_stdout olr --store - "$tmp/xz.data"

tsv=$fx/armpm/cbench-excerpt.tsv
cpi=(cpistack --group-by Benchmark --skip 2 "$tsv")
to_stdout "${cpi[@]}"
to_stdout "${cpi[@]}" --json
to_file "${cpi[@]}" -o /dev/full
to_file "${cpi[@]}" --json=/dev/full
to_file "${cpi[@]}" --csv=/dev/full
to_file "${cpi[@]}" --svg /dev/full

# hotspot: valgrind's exact counts of a short loop, and a recording of it. The loop is built
# here without sanitizers so that valgrind runs it in the ASan build too.
printf 'volatile unsigned long sink;\nint main(void) { for (unsigned long i = 0; i < 3000000; i++) sink += i; return 0; }\n' >"$tmp/loop.c"
${CC:-cc} -O1 -g -o "$tmp/loop" "$tmp/loop.c" || { echo "FAIL: cc"; exit 1; }
"$PMS" hotspot --record-truth "$tmp/truth" -- "$tmp/loop" >/dev/null 2>&1 ||
    { echo "FAIL: hotspot --record-truth"; exit 1; }
"$PMS" record -e cpu-clock -c 100000 -o "$tmp/h.data" -- "$tmp/loop" >/dev/null 2>&1 ||
    { echo "FAIL: record for hotspot"; exit 1; }
hot=(hotspot --truth "$tmp/truth" "$tmp/h.data")
to_stdout "${hot[@]}"
to_stdout "${hot[@]}" --json
to_file "${hot[@]}" -o /dev/full
to_file "${hot[@]}" --json=/dev/full

to_file demo --steps record -o "$tmp/demo" --json=/dev/full
to_stdout demo --steps record -o "$tmp/demo" --json

# record's own files on a full file system: perf.data cannot be /dev/full (it is written to a
# temporary file beside it and renamed), so a file system with no room left is mounted in a
# private mount namespace: a 1 MiB tmpfs filled up before pmuscope runs.
# on_full_fs DIR CMD...: CMD with DIR a full tmpfs (gone again when CMD ends).
on_full_fs() {
    local dir=$1
    shift
    mkdir -p "$dir"
    unshare -m sh -c 'mount -t tmpfs -o size=1m tmpfs "$1" && dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null
                      shift; exec "$@"' sh "$dir" "$@"
}
full=$tmp/full
on_full_fs "$full" "$PMS" record -e cpu-clock -c 100000 -o "$full/p.data" -- "$tmp/loop" >"$tmp/stdout" 2>"$err"
check "$full/p.data" $? record -o FULL/p.data
on_full_fs "$full" "$PMS" record -e cpu-clock -c 100000 --read page-faults --olr -o "$tmp/olr.data" \
    --olr-output "$full/p.olr.csv" -- "$tmp/loop" >"$tmp/stdout" 2>"$err"
check "$full/p.olr.csv" $? record --olr-output FULL/p.olr.csv
on_full_fs "$full" "$PMS" demo -o "$full/demo" >"$tmp/stdout" 2>"$err"
rc=$?
if [ "$rc" -ne 1 ] || ! grep -q "^pmuscope: .*$full/demo.*: No space left on device" "$err"; then
    echo "FAIL (exit $rc): demo -o FULL/demo"; sed 's/^/    stderr: /' "$err"; failures=$((failures + 1))
else
    echo "ok: demo -o FULL/demo: $(grep '^pmuscope:' "$err" | head -1)"
fi

# record -o /dev/null: a character device is written, never truncated (as perf record)
"$PMS" record -e cpu-clock -c 100000 -o /dev/null -- "$tmp/loop" >"$tmp/stdout" 2>"$err" ||
    { echo "FAIL: record -o /dev/null: $(cat "$err")"; failures=$((failures + 1)); }

# record --olr keeps an existing FILE.olr until the new one is complete: a recording that
# fails leaves it as it was; one that succeeds replaces it with a segment file.
echo "the old segments" >"$tmp/keep.data.olr"
"$PMS" record -e cpu-clock -c 100000 --read page-faults --olr -o "$tmp/keep.data" -- /nonexistent \
    >"$tmp/stdout" 2>"$err" && { echo "FAIL: record -- /nonexistent exited 0"; failures=$((failures + 1)); }
[ "$(cat "$tmp/keep.data.olr")" = "the old segments" ] ||
    { echo "FAIL: a failed record --olr changed FILE.olr"; failures=$((failures + 1)); }
"$PMS" record -e cpu-clock -c 100000 --read page-faults --olr -o "$tmp/keep.data" -- "$tmp/loop" \
    >"$tmp/stdout" 2>"$err" || { echo "FAIL: record --olr: $(cat "$err")"; failures=$((failures + 1)); }
[ "$(head -c 6 "$tmp/keep.data.olr")" = PMSOLR ] && "$PMS" olr --decode "$tmp/keep.data.olr" >/dev/null &&
    [ "$(ls "$tmp" | grep -c 'olr.tmp-')" -eq 0 ] ||
    { echo "FAIL: record --olr did not replace FILE.olr: $(head -c 40 "$tmp/keep.data.olr")"
      failures=$((failures + 1)); }

[ $failures -eq 0 ] || { echo "$failures outputs not checked"; exit 1; }
echo "write_errors: ok"
