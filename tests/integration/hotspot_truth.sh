#!/bin/bash
# pmuscope hotspot --truth on a `perf record` file of the hotspots workload: the sampled
# side agrees with perf script and perf report, the exact side with the workload's
# source (hot_a's loop runs 40,000,000 times), the measures are in range, the recording
# as a pprof profile scores the same; a recording of
# another program, and a binary replaced after valgrind ran, are refused.
# ctest-labels: serial;no-sanitize
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

grep -q -- "--sweep" <("$PMUSCOPE" hotspot --help) || fail "--help"
set +e
"$PMUSCOPE" hotspot >/dev/null 2>&1; [ $? -eq 2 ] || fail "no arguments: exit 2"
"$PMUSCOPE" hotspot --truth "$tmp" --svg x.svg x.data >/dev/null 2>&1; [ $? -eq 2 ] || fail "--svg without --sweep: exit 2"
"$PMUSCOPE" hotspot --truth "$tmp/none" x.data 2>"$tmp/err"; [ $? -eq 1 ] || fail "missing truth: exit 1"
set -e
grep -q "not a truth directory" "$tmp/err" || fail "missing truth message: $(cat "$tmp/err")"

# A command that fails under valgrind: the message says so and names valgrind's log.
set +e
"$PMUSCOPE" hotspot --record-truth "$tmp/false" -- false 2>"$tmp/err"; rc=$?
set -e
[ $rc -eq 1 ] && grep -q "exited with status 1 (see $tmp/false/callgrind.log)" "$tmp/err" || fail "false: $(cat "$tmp/err")"

mkdir "$tmp/bin"
cp "$PMS_WORKLOADS/hotspots" "$tmp/bin/hotspots"
"$PMUSCOPE" hotspot --record-truth "$tmp/truth" -- "$tmp/bin/hotspots"
for f in callgrind.out objects run; do [ -s "$tmp/truth/$f" ] || fail "truth lacks $f"; done

perf record -q -e cpu-clock:u -c 100000 -o "$tmp/perf.data" -- "$tmp/bin/hotspots" >/dev/null 2>&1
"$PMUSCOPE" hotspot --truth "$tmp/truth" --json "$tmp/perf.data" > "$tmp/out.json"
"$PMUSCOPE" hotspot --truth "$tmp/truth" --rows 5 "$tmp/perf.data" > "$tmp/out.txt"
grep -q "^OD " "$tmp/out.txt" && grep -q "the period counts nanoseconds" "$tmp/out.txt" || fail "text output: $(cat "$tmp/out.txt")"
# --rows N lists N sampled IPs; --rows 0 lists them all, as report's --limit 0 does.
rows() { awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9.]+$/ && $3 ~ /^[0-9]+$/ && $NF ~ /\+0x[0-9a-f]+$/ {n++} END {print n + 0}' "$1"; }
[ "$(rows "$tmp/out.txt")" -eq 5 ] || fail "--rows 5 listed $(rows "$tmp/out.txt") rows"
"$PMUSCOPE" hotspot --truth "$tmp/truth" --rows 0 "$tmp/perf.data" > "$tmp/all.txt"
[ "$(rows "$tmp/all.txt")" -eq "$(jq '.ips | length' "$tmp/out.json")" ] && [ "$(rows "$tmp/all.txt")" -gt 15 ] ||
    fail "--rows 0 listed $(rows "$tmp/all.txt") of $(jq '.ips | length' "$tmp/out.json") sampled IPs"

# A sweep's valgrind run leaves callgrind's branches out (--collect-jumps=yes costs about a
# quarter of callgrind's time): its blocks are then the runs of equal counts, whose distinct
# counts are the basic blocks' (test_hotspot_truth checks that on one run), and the loops'
# exact counts are the same.
"$PMUSCOPE" hotspot --sweep 16M --save-truth "$tmp/nobranch" -- "$tmp/bin/hotspots" >"$tmp/nobranch.txt"
grep -q "runs of equal counts" "$tmp/nobranch.txt" || fail "the sweep's truth line: $(head -1 "$tmp/nobranch.txt")"
grep -q '^jcnd=' "$tmp/truth/callgrind.out" || fail "--record-truth recorded no branches"
if grep -q '^jcnd=\|^jump=' "$tmp/nobranch/callgrind.out"; then fail "the sweep's callgrind recorded branches"; fi
"$PMUSCOPE" hotspot --truth "$tmp/nobranch" --json "$tmp/perf.data" > "$tmp/nobranch.json"
loops='[.ips[] | select(.function | test("^hot_")) | [.offset, .executed, .block_count]] | sort'
[ "$(jq -c "$loops" "$tmp/out.json")" = "$(jq -c "$loops" "$tmp/nobranch.json")" ] ||
    fail "the loops' counts differ without branches"

# Sampled side: every sample is accounted for, as perf script counts them.
theirs=$(perf script -i "$tmp/perf.data" -F ip 2>/dev/null | wc -l)
[ "$(jq .samples "$tmp/out.json")" -eq "$theirs" ] || fail "samples $(jq .samples "$tmp/out.json"), perf script $theirs"
placed=$(jq '[.ips[].sampled] | add' "$tmp/out.json")
[ $((placed + $(jq '.unplaced_samples + .outside_samples' "$tmp/out.json"))) -eq "$theirs" ] || fail "placed $placed"
[ "$(jq .ns "$tmp/out.json")" -eq "$placed" ] || fail "NS is not the number of placed samples"

# Per function, the sampled shares are perf report's (two decimals there).
perf report -i "$tmp/perf.data" --stdio --sort sym 2>/dev/null > "$tmp/perf.txt"
for f in hot_a hot_b hot_c hot_d hot_e; do
    mine=$(jq --arg f "$f" '[.ips[] | select(.function == $f) | .sampled] | add * 100 / '"$theirs" "$tmp/out.json")
    perfs=$(awk -v f=$f '$NF==f{print $1+0}' "$tmp/perf.txt")
    awk -v a="$mine" -v b="$perfs" 'BEGIN{d=a-b; if (d<0) d=-d; exit !(d <= 0.006)}' || fail "$f: pmuscope $mine% perf $perfs%"
done

# Exact side: the hottest sampled IP of each function is in its loop, which ran as the source says.
for pair in hot_a:40000000 hot_b:25000000 hot_c:20000000 hot_d:10000000 hot_e:5000000; do
    f=${pair%%:*} n=${pair##*:}
    got=$(jq --arg f "$f" '[.ips[] | select(.function == $f)] | max_by(.sampled) | .executed' "$tmp/out.json")
    bc=$(jq --arg f "$f" '[.ips[] | select(.function == $f)] | max_by(.sampled) | .block_count' "$tmp/out.json")
    [ "$got" -eq "$n" ] && [ "$bc" -eq "$n" ] || fail "$f: loop executed $got, block $bc, source says $n"
done
jq -e '.sc > 0 and .sc <= 1 and .nrmse_sr > 0 and .od > 0 and .m == (.ips | length)' "$tmp/out.json" >/dev/null ||
    fail "measures out of range: $(jq -c '{sc, nrmse_sr, od, m}' "$tmp/out.json")"
# The same recording as a pprof profile (report --pprof) is scored the same: every sampled
# IP in its file with its count, and so every measure.
"$PMUSCOPE" report -i "$tmp/perf.data" --pprof "$tmp/perf.pb.gz" >/dev/null
"$PMUSCOPE" hotspot --truth "$tmp/truth" --json "$tmp/perf.pb.gz" > "$tmp/pprof.json" 2>"$tmp/pprof.err" ||
    fail "hotspot --truth on a pprof profile: $(cat "$tmp/pprof.err")"
keys='{event, period, samples, unplaced_samples, m, ns, nrmse_sr, sc, od, ips: (.ips | sort_by(.object, .offset))}'
cmp -s <(jq -S "$keys" "$tmp/out.json") <(jq -S "$keys" "$tmp/pprof.json") ||
    fail "the pprof profile scores differently: $(diff <(jq -S "$keys" "$tmp/out.json") <(jq -S "$keys" "$tmp/pprof.json") | head)"
# OD beside what it rests on: the samples with no truth and the covered IPs, recounted
# from the IP list; the text names both ODs.
jq -e '.ns_no_truth == ([.ips[] | select(.executed == 0) | .sampled] | add // 0) and
       .m_covered == ([.ips[] | select(.executed > 0)] | length) and .od_covered >= 0' "$tmp/out.json" >/dev/null ||
    fail "OD covered: $(jq -c '{od, od_covered, m_covered, ns_no_truth}' "$tmp/out.json")"
grep -q "^OD covered " "$tmp/out.txt" && grep -q "of the samples are at instructions with no truth" "$tmp/out.txt" ||
    fail "OD lines: $(grep ^OD "$tmp/out.txt")"

# A recording of another program is refused, naming it: by its command line, and, with
# --allow-other-run, by its samples in another binary.
perf record -q -e cpu-clock:u -c 100000 -o "$tmp/phases.data" -- "$PMS_WORKLOADS/phases" --units 20 >/dev/null 2>&1
set +e
"$PMUSCOPE" hotspot --truth "$tmp/truth" "$tmp/phases.data" 2>"$tmp/err"; rc=$?
set -e
[ $rc -eq 1 ] && grep -q "the recording ran .*phases --units 20" "$tmp/err" || fail "phases: rc $rc $(cat "$tmp/err")"
set +e
"$PMUSCOPE" hotspot --allow-other-run --truth "$tmp/truth" "$tmp/phases.data" 2>"$tmp/err"; rc=$?
set -e
[ $rc -eq 1 ] && grep -q "different binary" "$tmp/err" && grep -q "phases" "$tmp/err" || fail "phases: rc $rc $(cat "$tmp/err")"

# The same binary with other arguments: refused, or compared with a warning.
perf record -q -e cpu-clock:u -c 100000 -o "$tmp/scale2.data" -- "$tmp/bin/hotspots" --scale 2 >/dev/null 2>&1
set +e
"$PMUSCOPE" hotspot --truth "$tmp/truth" "$tmp/scale2.data" >/dev/null 2>"$tmp/err"; rc=$?
set -e
[ $rc -eq 1 ] && grep -q -- "ran \"$tmp/bin/hotspots --scale 2\" but the truth is of \"$tmp/bin/hotspots\"" "$tmp/err" ||
    fail "other arguments: rc $rc $(cat "$tmp/err")"
"$PMUSCOPE" hotspot --allow-other-run --truth "$tmp/truth" "$tmp/scale2.data" >/dev/null 2>"$tmp/err" &&
    grep -q "warning: the recording ran" "$tmp/err" || fail "--allow-other-run: $(cat "$tmp/err")"

# A sweep runs valgrind once with the recordings beside it: here the command under valgrind
# waits for the file that a natively recorded run of it creates, so the sweep ends only if a
# recording ran while valgrind did. The wait has no wall-time bound, which a loaded machine
# could exceed: one after the other, valgrind's run would wait for ever and ctest's timeout
# fails the test. Both runs first spin in the shell, for samples.
beside='i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done
case "$LD_PRELOAD" in
*vgpreload*) while [ ! -e "$0" ]; do sleep 0.1; done ;;
*) touch "$0" ;;
esac'
"$PMUSCOPE" hotspot --sweep 64K --json -o "$tmp/beside.json" -- sh -c "$beside" "$tmp/flag" ||
    fail "the sweep's valgrind run did not see a recording beside it"
jq -e '.periods[0].samples > 0 and .valgrind_seconds > 0' "$tmp/beside.json" >/dev/null || fail "beside: $(cat "$tmp/beside.json")"

# The binary replaced after valgrind ran: the truth no longer describes it.
cp "$PMS_WORKLOADS/phases" "$tmp/bin/hotspots"
set +e
"$PMUSCOPE" hotspot --truth "$tmp/truth" "$tmp/perf.data" 2>"$tmp/err"; rc=$?
set -e
[ $rc -eq 1 ] && grep -q "rebuilt since the truth" "$tmp/err" || fail "replaced binary: rc $rc $(cat "$tmp/err")"
echo "ok"
