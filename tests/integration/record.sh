#!/usr/bin/env bash
# pmuscope record end to end with software events: the file it writes is read by perf
# script and perf report, interrupted and killed recordings leave valid files, attach,
# --read groups, period randomisation, and the errors.
# ctest-labels: serial
set -euo pipefail
dir=$(mktemp -d /tmp/pms-record-XXXXXX)
trap 'rm -rf "$dir"' EXIT
hot=$PMS_WORKLOADS/hotspots
fail() { echo "FAIL: $*" >&2; exit 1; }
# The sample count of the summary line "[ pmuscope record: Captured and wrote ... (N samples) ]".
summary_samples() { sed -n 's/.*Captured and wrote .* (\([0-9]*\) samples) ].*/\1/p' "$1"; }
script_samples() { perf script -i "$1" -F ip 2>/dev/null | wc -l; }
. "$PMS_SOURCE_DIR/tests/lib/processes.sh"

echo "== a command: perf script sees the same samples, perf report the workload's functions"
$PMUSCOPE record -e cpu-clock -F 4000 -o "$dir/a.data" -- "$hot" >/dev/null 2>"$dir/a.err"
cat "$dir/a.err"
n=$(summary_samples "$dir/a.err")
[ "$n" -gt 300 ] || fail "too few samples: $n"
[ "$(script_samples "$dir/a.data")" -eq "$n" ] || fail "perf script counts $(script_samples "$dir/a.data"), pmuscope $n"
perf report -i "$dir/a.data" --stdio --sort sym 2>/dev/null | grep -v '^#' | grep . > "$dir/a.report"
head -6 "$dir/a.report"
for f in hot_a hot_b hot_c hot_d hot_e; do grep -q "\] $f\$" "$dir/a.report" || fail "perf report lacks $f"; done
[ "$(awk 'NR==1 {print $NF}' "$dir/a.report")" = hot_a ] || fail "hot_a is not the top symbol"
[ "$(perf script -i "$dir/a.data" -F comm 2>/dev/null | awk '{print $1}' | sort -u)" = hotspots ] || fail "samples not all named hotspots"

echo "== SIGINT mid-record: a valid file, the command ended"
$PMUSCOPE record -e cpu-clock -F 1000 -o "$dir/int.data" -- "$hot" --scale 50 >/dev/null 2>"$dir/int.err" &
rec=$!
child=$(child_of $rec hotspots)
wait_cpu_ms "$child" 400   # 400 samples at 1 kHz of its CPU time
kill -INT $rec
# pmuscope ends the command with SIGTERM and returns its status, as perf record does: 143.
rc=0; wait $rec || rc=$?
[ $rc -eq 143 ] || fail "record exited $rc after SIGINT, not 143 (the command's SIGTERM)"
cat "$dir/int.err"
n=$(summary_samples "$dir/int.err")
[ "$n" -gt 200 ] || fail "too few samples after SIGINT: $n"
[ "$(script_samples "$dir/int.data")" -eq "$n" ] || fail "perf script disagrees after SIGINT"
[ -z "$child" ] || ! kill -0 "$child" 2>/dev/null || fail "the command still runs after SIGINT"

echo "== the target killed with SIGKILL mid-run: a valid file"
$PMUSCOPE record -e cpu-clock -F 1000 -o "$dir/kill.data" -- "$hot" --scale 50 >/dev/null 2>"$dir/kill.err" &
rec=$!
child=$(child_of $rec hotspots)
wait_cpu_ms "$child" 400
kill -KILL "$child"
rc=0; wait $rec || rc=$?
[ $rc -eq 137 ] || fail "record exited $rc after its target was killed, not 137"
cat "$dir/kill.err"
grep -q "killed by signal 9" "$dir/kill.err" || fail "no word that the command was killed"
n=$(summary_samples "$dir/kill.err")
[ "$n" -gt 200 ] && [ "$(script_samples "$dir/kill.data")" -eq "$n" ] || fail "bad file after SIGKILL"

echo "== pmuscope itself killed with SIGKILL: the file as of the last sync (every second) is valid"
$PMUSCOPE record -e cpu-clock -F 1000 -o "$dir/k9.data" -- "$hot" --scale 50 >/dev/null 2>&1 &
rec=$!
child=$(child_of $rec hotspots)
# Until a sync has made 200 samples readable (the command runs ~8 s of CPU time: if no
# sync comes before it ends, this fails).
until [ "$(script_samples "$dir/k9.data")" -gt 200 ]; do
    kill -0 "$child" 2>/dev/null || fail "no sync made 200 samples readable while the command ran"
    sleep 0.2
done
kill -KILL $rec
wait $rec 2>/dev/null || true
kill -KILL "$child" 2>/dev/null || true
n=$(script_samples "$dir/k9.data")
echo "$n samples readable"
[ "$n" -gt 200 ] || fail "only $n samples readable after pmuscope was killed"
# The temporary file became k9.data at the first sync that held a sample: none is left.
! ls "$dir"/k9.data.tmp-* >/dev/null 2>&1 || fail "a temporary file is left beside k9.data"

echo "== the exit status is the command's, as perf record returns it"
set +e
for cmd in 'exit 3' 'kill -TERM $$' 'kill -KILL $$' 'exit 0'; do
    $PMUSCOPE record -e cpu-clock -o "$dir/st.data" -- sh -c "$cmd" >/dev/null 2>&1; rc=$?
    perf record -q -e cpu-clock -o "$dir/st-perf.data" -- sh -c "$cmd" >/dev/null 2>&1; perf_rc=$?
    echo "sh -c '$cmd': pmuscope $rc, perf record $perf_rc"
    [ $rc -eq $perf_rc ] || fail "sh -c '$cmd': pmuscope record exits $rc, perf record $perf_rc"
done
set -e
[ $rc -eq 0 ] || fail "exit 0 gave $rc"

echo "== an existing output is kept: untouched by a failed record, FILE.old after a new one"
cp "$dir/a.data" "$dir/keep.data"
rc=0; $PMUSCOPE record -e cpu-clock -o "$dir/keep.data" -- /no/such/program 2>/dev/null || rc=$?
[ $rc -eq 1 ] || fail "a command that cannot run: exit $rc"
cmp -s "$dir/a.data" "$dir/keep.data" || fail "a failed record changed or removed keep.data"
[ ! -e "$dir/keep.data.old" ] || fail "a failed record made keep.data.old"
! ls "$dir"/keep.data.tmp-* >/dev/null 2>&1 || fail "a failed record left a temporary file"
$PMUSCOPE record -e cpu-clock -F 1000 -o "$dir/keep.data" -- "$hot" >/dev/null 2>"$dir/keep.err"
cmp -s "$dir/a.data" "$dir/keep.data.old" || fail "the previous keep.data is not keep.data.old"
[ "$(script_samples "$dir/keep.data")" -eq "$(summary_samples "$dir/keep.err")" ] || fail "the new keep.data"
! ls "$dir"/keep.data.tmp-* >/dev/null 2>&1 || fail "a temporary file is left beside keep.data"
# An empty output is replaced without a .old, as perf record does.
: >"$dir/empty.data"
$PMUSCOPE record -e cpu-clock -o "$dir/empty.data" -- sh -c 'exit 0' >/dev/null 2>&1 || fail "into an empty file"
[ -s "$dir/empty.data" ] && [ ! -e "$dir/empty.data.old" ] || fail "an empty output was kept as .old"

echo "== attach to a running process with -p, until it ends"
"$hot" --scale 8 &
target=$!
wait_exec $target hotspots
$PMUSCOPE record -e cpu-clock -F 2000 -o "$dir/p.data" -p $target 2>"$dir/p.err"
wait $target || true
cat "$dir/p.err"
n=$(summary_samples "$dir/p.err")
[ "$n" -gt 500 ] || fail "too few samples with -p: $n"
[ "$(script_samples "$dir/p.data")" -eq "$n" ] || fail "perf script disagrees with -p"
perf report -i "$dir/p.data" --stdio --sort sym 2>/dev/null | grep -v '^#' | grep . | head -3 | tee "$dir/p.report"
grep -q '\] hot_a$' "$dir/p.report" || fail "attached samples are not symbolised (hot_a missing)"

echo "== --read: the group values in every sample"
$PMUSCOPE record -e cpu-clock -c 500000 --read task-clock,page-faults -o "$dir/r.data" -- "$hot" \
    >/dev/null 2>"$dir/r.err"
n=$(summary_samples "$dir/r.err")
perf script -i "$dir/r.data" -F event,period 2>/dev/null > "$dir/r.script"
head -3 "$dir/r.script"
# perf script shows a member only where its value changed since the previous sample.
for e in cpu-clock task-clock; do
    [ "$(grep -c " $e:" "$dir/r.script")" -eq "$n" ] || fail "$e values in $(grep -c " $e:" "$dir/r.script") of $n samples"
done
grep -q " page-faults:" "$dir/r.script" || fail "no page-faults values"
# task-clock advances by about the sampling period (500 us of the child's CPU time) per sample.
awk '/task-clock:/ {s += $1; k++} END {m = s / k; if (m < 300000 || m > 800000) exit 1; print "mean task-clock delta", m}' \
    "$dir/r.script" || fail "task-clock deltas are not near the period"

echo "== --read: only the event that leads counters reads them in its samples"
# A second sampling event that reads nothing would carry a group read of itself (40 bytes a
# sample that nothing uses): it is given none.
$PMUSCOPE record -e cpu-clock,page-faults -c 100000 --read task-clock -o "$dir/r2.data" -- "$PMS_WORKLOADS/sizes" 1 \
    >/dev/null 2>&1
perf evlist -v -i "$dir/r2.data" 2>/dev/null > "$dir/r2.evlist"
grep -q '^cpu-clock: .*sample_type: [A-Z|]*|READ|' "$dir/r2.evlist" || fail "the leader reads no group: $(cat "$dir/r2.evlist")"
grep '^page-faults: ' "$dir/r2.evlist" | grep -q 'sample_type: [A-Z|]*READ' && fail "page-faults samples carry a read: $(cat "$dir/r2.evlist")"
[ "$(perf script -i "$dir/r2.data" -F event 2>/dev/null | grep -c page-faults)" -gt 0 ] || fail "no page-faults samples in perf script"

echo "== --randomize=mask:16: periods in [base, base + 2^16)"
$PMUSCOPE record -e cpu-clock -c 100000 --randomize=mask:16 -o "$dir/m.data" -- "$hot" >/dev/null 2>"$dir/m.err"
cat "$dir/m.err"
# A new period is drawn at each drain, and how often pmuscope drains depends on the CPU it
# gets: the check is on the periods drawn, not on how many samples share one.
changes=$(sed -n 's/.*--randomize=mask:16 --seed [0-9]*: \([0-9]*\) period changes.*/\1/p' "$dir/m.err")
perf script -i "$dir/m.data" -F period 2>/dev/null | awk -v changes="$changes" '
    { if ($1 < 100000 || $1 >= 165536) bad++; seen[$1] = 1; n++; if ($1 != last) { s += $1; k++; last = $1 } }
    END { d = length(seen); m = s / k
          printf "%d samples, %d periods drawn (%d distinct, %d changes), mean %.0f, %d out of range\n", n, k, d, changes, m, bad
          # uniform on [100000, 165536): mean 132768, sd 18918 / sqrt(k); 4 sd either side
          exit !(n > 300 && k >= 50 && changes >= k / 4 && d > k / 2 && !bad && m > 132768 - 4 * 18918 / sqrt(k) &&
                 m < 132768 + 4 * 18918 / sqrt(k)) }' || fail "mask periods"
grep -q 'period changes' "$dir/m.err" || fail "no randomisation cost in the summary"

echo "== --randomize=exp: mean near the base period"
$PMUSCOPE record -e cpu-clock -c 200000 --randomize=exp -o "$dir/e.data" -- "$hot" --scale 4 >/dev/null 2>"$dir/e.err"
# On cpu-clock every sample says the period drawn for it, also one under the 50 us the
# timer is given at least (that sample comes late and the next interval is shorter): the
# mean is the base. A run of samples with one period is one draw.
perf script -i "$dir/e.data" -F period 2>/dev/null | awk '
    $1 != last { s += $1; n++; if ($1 > 400000) big++; if ($1 < 50000) low++; last = $1 }
    END { m = s / n; printf "%d periods drawn, mean %.0f, %.0f%% above twice the base, %.0f%% under 50 us\n", n, m,
                 100 * big / n, 100 * low / n
          # sd of the mean of n draws: about 200000 / sqrt(n); 4 sd either side. P(> 400000) = e^-2,
          # P(< 50000) = 1 - e^-1/4.
          exit !(n >= 100 && m > 200000 - 4 * 200000 / sqrt(n) && m < 200000 + 4 * 200000 / sqrt(n) && big > 0 && low > 0) }' \
    || fail "exp periods"

echo "== errors"
set +e
if grep -q '^ *cycles.*yes' <($PMUSCOPE list 2>/dev/null); then
    echo "skipped: this machine has a PMU, the no-PMU message cannot be shown"
else
    $PMUSCOPE record -e cycles -o "$dir/hw.data" -- "$hot" 2>"$dir/hw.err"; rc=$?
    cat "$dir/hw.err"
    [ $rc -eq 1 ] && grep -q "cycles: not supported on this machine: no hardware PMU" "$dir/hw.err" \
        || fail "a hardware event without PMU: exit $rc"
    $PMUSCOPE record --fallback -e cycles -c 200000 -o "$dir/fb.data" -- "$hot" 2>"$dir/fb.err"; rc=$?
    [ $rc -eq 0 ] && grep -q "cpu-clock stands in for cycles (--fallback)" "$dir/fb.err" || fail "--fallback: exit $rc"
    [ "$(perf script -i "$dir/fb.data" -F event 2>/dev/null | sort -u | tr -d ' ')" = "cpu-clock:" ] \
        || fail "--fallback did not record cpu-clock"
fi
$PMUSCOPE record -c 1000 -F 100 -- true 2>/dev/null; [ $? -eq 2 ] || fail "-c with -F is not a usage error"
$PMUSCOPE record --randomize=exp -F 100 -- true 2>/dev/null; [ $? -eq 2 ] || fail "--randomize without -c accepted"
$PMUSCOPE record --randomize=mask:99 -c 1000 -- true 2>"$dir/mask.err"; rc=$?
[ $rc -eq 2 ] && grep -q "'mask:99': expected a number of bits from 1 to 32 after 'mask:' (--randomize)" "$dir/mask.err" ||
    fail "mask:99 accepted: $(cat "$dir/mask.err")"
$PMUSCOPE record -e cpu-clock -o "$dir/none.data" -- /no/such/program 2>"$dir/none.err"; rc=$?
[ $rc -eq 1 ] && grep -q "cannot run '/no/such/program'" "$dir/none.err" && [ ! -e "$dir/none.data" ] \
    && ! ls "$dir"/none.data* >/dev/null 2>&1 \
    || fail "a command that cannot run: exit $rc"
# -F above perf_event_max_sample_rate: lowered to the limit with a warning, as perf record does.
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
$PMUSCOPE record -e cpu-clock -F $((max * 2)) -o "$dir/fast.data" -- "$PMS_WORKLOADS/hotspots" >/dev/null 2>"$dir/fast.err" \
    || fail "-F $((max * 2)): $(cat "$dir/fast.err")"
grep -q "sampling at $max Hz" "$dir/fast.err" || fail "-F above the limit: no warning naming $max Hz"
grep -q "sample_freq }: $max," <(perf evlist -v -i "$dir/fast.data" 2>/dev/null) \
    || fail "-F above the limit: perf evlist does not show sample_freq $max"
grep -q -- '--randomize=mask:BITS' <($PMUSCOPE record --help) || fail "--help"
echo "all record checks passed"
