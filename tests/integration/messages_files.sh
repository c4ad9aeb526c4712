#!/usr/bin/env bash
# Messages that say what a file is and where it went wrong (each case failed before):
#  - a perf.data cut to 4-7 bytes is a perf.data too short for its header (it was "not a
#    pprof profile", and with --sort a usage error saying it "is a pprof profile");
#  - a small file that is neither is said to be neither: no PERFILE2 magic at offset 0, and
#    where it stops looking like a pprof profile (it was "not a pprof profile");
#  - a text cell in the cycles column is named by line and field (it was "no cycles column
#    found by name (columns: ..., cycles, ...)");
#  - a table of more counters than olr fits is refused naming the file and its header line;
#  - record -z -o - is recorded, and perf 6.1 reads that stream (it was refused);
#  - pid -1 reads -1 as perf report prints it (it was 4294967295);
#  - record -p's JSON says the process ended (it said "still running (attached)");
#  - --json=FILE of a record that fails on a full disk holds the summary and the error (it
#    was left empty).
set -uo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$PMUSCOPE
F=$PMS_FIXTURES
failures=0
bad() { echo "FAIL: $*"; failures=$((failures + 1)); }
# says WANT RC CMD...: CMD exits RC and its last stderr line is WANT (a fixed string).
says() {
    local want=$1 rc=$2
    shift 2
    "$P" "$@" >/dev/null 2>"$tmp/err"
    local got=$?
    if [ "$got" != "$rc" ] || [ "$(tail -1 "$tmp/err")" != "$want" ]; then
        bad "$*: exit $got (wanted $rc): $(tail -1 "$tmp/err") (wanted: $want)"
    else
        echo "ok: $*: $want"
    fi
}

# A perf.data cut short to its first 4 to 7 bytes ("PERF"...).
for n in 4 5 6 7; do
    head -c $n "$F/olr/group.data" >"$tmp/cut.data"
    says "pmuscope: $tmp/cut.data: $n bytes is too short for a perf.data header" 1 report "$tmp/cut.data"
    says "pmuscope: $tmp/cut.data: $n bytes is too short for a perf.data header" 1 report --sort dso "$tmp/cut.data"
done

# Small files that are neither a perf.data nor a pprof profile.
printf 'hello world\n' >"$tmp/hello.txt"
says "pmuscope: $tmp/hello.txt: neither a perf.data file (no PERFILE2 magic at offset 0) nor a pprof profile (offset 2: expected a field of profile.proto's Profile (1 to 14, each of its wire type))" 1 report "$tmp/hello.txt"
cp "$F/estimate/sizes_runs.csv" "$tmp/runs.csv"
says "pmuscope: $tmp/runs.csv: neither a perf.data file (no PERFILE2 magic at offset 0) nor a pprof profile (offset 0: expected a field of profile.proto's Profile (1 to 14, each of its wire type))" 1 report "$tmp/runs.csv"
says "pmuscope: $tmp/runs.csv: neither a perf.data file (no PERFILE2 magic at offset 0) nor a pprof profile (offset 0: expected a field of profile.proto's Profile (1 to 14, each of its wire type))" 1 report "$F/olr/group.data" "$tmp/runs.csv"
# a pprof profile and a perf.data are still told apart by their content
"$P" report -i "$F/olr/group.data" --pprof "$tmp/p.pb.gz" >/dev/null || bad "report --pprof"
"$P" report "$tmp/p.pb.gz" >/dev/null 2>"$tmp/err" || bad "a pprof profile is no longer read: $(cat "$tmp/err")"
gunzip -c "$tmp/p.pb.gz" >"$tmp/p.pb"
"$P" report "$tmp/p.pb" >/dev/null 2>"$tmp/err" || bad "a raw pprof profile is no longer read: $(cat "$tmp/err")"

# A text cell in the cycles column (line 3, field 3).
sed '3s/^\(TEST2,2,\)[0-9]*/\1oops/' "$F/estimate/sizes_runs.csv" >"$tmp/textcell.csv"
says "pmuscope: $tmp/textcell.csv:3:3: column 'cycles': expected a number, found 'oops'" 1 \
    estimate "$tmp/textcell.csv" --train 1-8 --test 9,50

# A header of 19999 counters besides x.
python3 -c '
n = 20000
print(",".join(["x"] + ["c%d" % i for i in range(1, n)]))
for r in range(3): print(",".join(str(r * 10 + i) for i in range(n)))' >"$tmp/wide.csv"
says "pmuscope: $tmp/wide.csv:1: 19999 counter columns besides x: olr fits 1 to 4096 at once; choose them (--counters)" 1 \
    olr "$tmp/wide.csv"

# record -z -o -: perf reads the stream, so does pmuscope report.
"$P" record -z -e cpu-clock -c 100000 -o - -- "$PMS_WORKLOADS/loop" 20000000 2>"$tmp/err" >"$tmp/z.data" ||
    bad "record -z -o -: $(cat "$tmp/err")"
n=$(perf script -i - <"$tmp/z.data" 2>/dev/null | wc -l)
[ "$n" -gt 10 ] || bad "perf script reads $n samples of record -z -o -"
perf report -i - --header-only <"$tmp/z.data" 2>/dev/null | grep -q 'compressed' || bad "perf sees no compression"
m=$("$P" report -i - --json <"$tmp/z.data" | python3 -c 'import json,sys; print(sum(e["samples"] for e in json.load(sys.stdin)["events"]))')
[ "$m" = "$n" ] || bad "pmuscope report reads $m samples, perf script $n"
echo "ok: record -z -o -: perf script and pmuscope report read its $n samples"

# pid -1: as perf report prints it.
"$PMS_BUILD_DIR/tests/perfdata_unknown_thread" "$tmp/ut.data" || bad "perfdata_unknown_thread"
perf report -i "$tmp/ut.data" --stdio --sort pid,comm 2>/dev/null | grep -E '^ +[0-9.]+%' |
    awk '{print $1, $2, $3}' >"$tmp/perf.txt"
"$P" report -i "$tmp/ut.data" --sort pid,comm | grep -E '^ +[0-9.]+%' | awk '{print $1, $5, $6}' >"$tmp/pms.txt"
diff "$tmp/perf.txt" "$tmp/pms.txt" >/dev/null || bad "pid -1: perf: $(cat "$tmp/perf.txt") pmuscope: $(cat "$tmp/pms.txt")"
grep -q '^40.00% -1::-1 :-1$' "$tmp/pms.txt" || bad "no -1 row: $(cat "$tmp/pms.txt")"
echo "ok: pid -1 as perf prints it: $(grep -- '-1' "$tmp/pms.txt")"

# record -p: the process ends while recorded. It runs for 0.2 s: under load it once ended
# before record started ("no process with pid"), so it waits on a FIFO until the recorder
# holds its events (a perf_event fd among the recorder's).
mkfifo "$tmp/go"
sh -c 'read x < "$1"; exec "$2" 200000000' sh "$tmp/go" "$PMS_WORKLOADS/loop" &
target=$!
"$P" record -e cpu-clock -p "$target" -o "$tmp/att.data" --json="$tmp/att.json" >/dev/null 2>"$tmp/err" &
recorder=$!
fail() { bad "$@"; }
. "$PMS_SOURCE_DIR/tests/lib/processes.sh"
wait_perf_open "$recorder"
echo go > "$tmp/go"
wait "$recorder" || bad "record -p: $(cat "$tmp/err")"
wait "$target"
python3 - "$tmp/att.json" <<'PY' || bad "record -p JSON: $(cat "$tmp/att.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exited"] is True and d["status"].startswith("ended"), d
print("ok: record -p JSON:", d["status"])
PY

# --json=FILE when the perf.data cannot be written (a full tmpfs, as write_errors.sh makes it).
full=$tmp/full
mkdir -p "$full"
unshare -m sh -c 'mount -t tmpfs -o size=1m tmpfs "$1" && dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null; shift; exec "$@"' \
    sh "$full" "$P" record -e cpu-clock -c 100000 -o "$full/p.data" --json="$tmp/fail.json" -- "$PMS_WORKLOADS/loop" 20000000 \
    >/dev/null 2>"$tmp/err" && bad "record on a full disk exited 0"
python3 - "$tmp/fail.json" "$full/p.data" <<'PY' || bad "--json of a failed record: $(head -c 400 "$tmp/fail.json")"
import json, sys
d = json.load(open(sys.argv[1]))
want = "cannot write %s: No space left on device" % sys.argv[2]
assert d["error"] == want, (d["error"], want)
assert d["output"] == sys.argv[2] and "events" in d, d
print("ok: --json of a failed record:", d["error"])
PY

[ $failures -eq 0 ] || { echo "$failures messages wrong"; exit 1; }
echo "messages_files: ok"
