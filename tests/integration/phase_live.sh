#!/usr/bin/env bash
# pmuscope phase live on the phases workload with software events (cpu-clock samples,
# task-clock intervals, CLOCK_MONOTONIC times), checked on what holds at any load: how
# well its labels match the schedule the workload writes depends on how the scheduler
# spread its samples (that level is checked on deterministic input in phase_exact.sh),
# but the labels are what the classifier gives the run's own signatures again, the
# adjusted Rand index is the one recomputed from the CSV, and every interval has its
# exact number of samples; the monitor's outputs are complete.
# ctest-labels: serial
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$PMUSCOPE

# Runs pmuscope phase live on phases (options, then -- phases arguments) once, with the
# workload's schedule as truth, and checks the run against itself:
#  - its labels (CSV) are what its signatures (JSON, printed exactly) give again through the
#    classifier at its settings (tests/tools/phase_reclassify.c);
#  - its adjusted Rand index (JSON) is the one recomputed here from the CSV's phase and
#    truth columns over the labelled intervals, by the index's formula (Hubert & Arabie).
# The index itself is printed, not asserted: it follows the load.
live() {
  local opts=()
  while [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  $P phase "${opts[@]}" --truth "$tmp/trace" --csv="$tmp/live.csv" --json -o "$tmp/live.json" \
    -- "$PMS_WORKLOADS/phases" "$@" --trace "$tmp/trace" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; return 1; }
  jq -r '.intervals[].signature | map(tostring) | join(" ")' "$tmp/live.json" >"$tmp/signatures"
  # the last interval, when it has fewer samples than half the first's, takes the nearest phase
  local partial
  partial=$(jq '.intervals | if (.[-1].samples * 2 < .[0].samples) then length else 0 end' "$tmp/live.json")
  "$PMS_BUILD_DIR/tests/phase_reclassify" "$(jq .settings.threshold_percent "$tmp/live.json")" \
    "$(jq .settings.signature_size "$tmp/live.json")" "$(jq .settings.cache_size "$tmp/live.json")" \
    "$(jq .settings.transition_threshold "$tmp/live.json")" "$partial" <"$tmp/signatures" >"$tmp/again"
  cut -d, -f6 "$tmp/live.csv" | tail -n +2 >"$tmp/labels"
  [ -s "$tmp/labels" ] && cmp "$tmp/labels" "$tmp/again" ||
    { echo "the live labels are not what the classifier gives their signatures again"; diff "$tmp/labels" "$tmp/again" | head; return 1; }
  local out got rows
  out=$(python3 "$PMS_SOURCE_DIR/tests/lib/phase_ari.py" "$tmp/live.csv" "$tmp/live.json") || return 1
  read -r got rows <<<"$out"
  echo "phases $*: $(($(wc -l <"$tmp/live.csv") - 1)) intervals, labels as the classifier gives them again; adjusted" \
    "Rand index $got against the schedule over $rows labelled ones (recomputed from the CSV)"
  [ "$rows" -ge 20 ]
}

# Fine sampling (cpu-clock every 50 us, 4 ms intervals of 80 samples, about +40% of CPU
# time here) resolves the sequence of fixed work, whose shortest phase instances (B) last 25 ms.
live -e cpu-clock -c 50000 --interval-event task-clock --interval-size 4000000 --threshold 50 -- --units 1000 --repeat 2
[ "$(cut -d, -f15 "$tmp/live.csv" | grep -c '^[ABCD]$')" -gt 100 ]

# The defaults for software events (what a machine without PMU gets: cpu-clock every 4 ms,
# chosen for an overhead below 1%, intervals of 7 samples = 28 ms of each thread's
# task-clock, and with 7 samples an interval the similarity threshold 80%, no transition
# wait, 256 signature entries) on the workload's defaults (200 ms phases): the index itself
# is phase_defaults.sh's; here what holds on every run.
live --
[ "$(jq .settings.threshold_percent "$tmp/live.json")" = 80 ]
[ "$(jq .settings.transition_threshold "$tmp/live.json")" = 1 ]
[ "$(jq .settings.signature_size "$tmp/live.json")" = 256 ]

# The CSV has a row per interval, every predictor, truth labels from the trace and the thread.
head -1 "$tmp/live.csv" | grep -q "predicted_last,predicted_markov,predicted_ppm,predicted_run-length,confidence,next_multiple,truth,tid"
# Nearly every interval has a truth label (the setup before the first phase has none).
rows=$(($(wc -l <"$tmp/live.csv") - 1))
labelled=$(cut -d, -f15 "$tmp/live.csv" | grep -c '^[ABCD]$' || true)
echo "$labelled of $rows intervals labelled A to D"
[ "$rows" -ge 60 ] && [ "$labelled" -ge $((rows * 9 / 10)) ]
# The program is not pinned: it runs on either CPU, each with its own buffer and its own
# task-clock count. Its thread's own samples make its intervals: exactly 7 in every
# interval but the last, partial one, each sample one 4 ms period of cpu-clock (size 28 ms),
# and one thread id in every row (phases has one thread).
awk -F, 'NR > 2 && (last_n != 7 || last_size != 28000000) { bad++ } NR > 1 { last_n = $5; last_size = $4; tid[$16] = 1 }
  END { printf "%d of %d intervals without exactly 7 samples (the last excepted), %d threads\n", bad, NR - 2, length(tid)
        exit bad != 0 || length(tid) != 1 }' "$tmp/live.csv"
grep -Eq '"source": ".*/phases \(live: samples of cpu-clock, intervals of task-clock\)"' "$tmp/live.json"
# The baseline beside the predictors: last value on the known labels, recounted here
# from the CSV's truth column ("-" where an interval has no label).
want=$(awk -F, 'NR > 2 && $15 != "-" && prev != "-" { n++; same += ($15 == prev) } NR > 1 { prev = $15 }
  END { printf "%.6f", n ? same / n : -1 }' "$tmp/live.csv")
got=$(jq '.summary.baseline_last_value_accuracy' "$tmp/live.json")
awk -v a="$want" -v b="$got" 'BEGIN { d = a - b; exit !(a >= 0 && d < 1e-6 && d > -1e-6) }' ||
  { echo "baseline $got, recounted $want"; exit 1; }

# Dynamic intervals merge base intervals (as many as the engine asks for): longer intervals
# on average, some of them at the maximum of 8 base intervals.
$P phase -e cpu-clock -c 50000 --interval-event task-clock --interval-size 4000000 --threshold 50 --grow 2 --max-interval 8 \
  --csv="$tmp/grow.csv" -q -- "$PMS_WORKLOADS/phases" --units 500 --repeat 2 >/dev/null
mean() { awk -F, 'NR > 1 { s += $4; n++ } END { printf "%d", s / n }' "$1"; }
echo "mean interval: base 4000000 ns, dynamic $(mean "$tmp/grow.csv") ns of task-clock"
[ "$(mean "$tmp/grow.csv")" -gt 6000000 ]
awk -F, 'NR > 1 && $4 >= 30000000 { big++ } END { exit !(big > 0) }' "$tmp/grow.csv"

# The defaults: branches and instructions with a PMU, cpu-clock and task-clock without;
# randomised (exponential) sample periods.
$P phase -q --randomize=exp -- "$PMS_WORKLOADS/phases" --ms 100 --repeat 1 >"$tmp/default.txt"
grep -Eq "^summary of .*phases \(live: samples of (cpu-clock, intervals of task-clock|branches, intervals of instructions)\)" \
  "$tmp/default.txt"
grep -Eq "^  intervals +[1-9]" "$tmp/default.txt"

# Attached to a running process (-p): read in poll calls until it exits. The process (0.4 s
# of CPU) waits on a FIFO until phase holds its events, so that it cannot end, or run half
# its course, before phase attaches however busy the machine is.
fail() { echo "FAIL: $*"; exit 1; }
. "$PMS_SOURCE_DIR/tests/lib/processes.sh"
mkfifo "$tmp/go"
sh -c 'read x < "$1"; shift; exec "$@"' sh "$tmp/go" "$PMS_WORKLOADS/phases" --units 300 --repeat 2 >/dev/null &
pid=$!
$P phase -e cpu-clock -c 100000 --interval-event task-clock --interval-size 4000000 -q -p "$pid" --csv="$tmp/attach.csv" \
  >"$tmp/attach.txt" &
monitor=$!
wait_perf_open "$monitor"
echo go > "$tmp/go"
wait "$monitor"
wait "$pid"
grep -q "^summary of process $pid (live: samples of cpu-clock, intervals of task-clock)" "$tmp/attach.txt"
[ "$(($(wc -l <"$tmp/attach.csv") - 1))" -gt 20 ]

# --no-inherit follows the command's own process only: a shell that runs phases (and then
# `true`, so that it forks rather than execs) gets none of phases's samples, and says why;
# the help says so too. Without it the same command gives intervals (the runs above).
rc=0
$P phase -q -e cpu-clock --interval-event task-clock --no-inherit -- \
  sh -c "'$PMS_WORKLOADS/phases' --units 500 --repeat 1 >/dev/null; true" >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] && grep -q "no samples from sh .*--no-inherit follows its own process only, and the processes it started are not sampled" "$tmp/err" ||
  { echo "--no-inherit on a shell: rc $rc, $(cat "$tmp/err")"; exit 1; }
$P phase -q -e cpu-clock --interval-event task-clock -- \
  sh -c "'$PMS_WORKLOADS/phases' --units 500 --repeat 1 >/dev/null; true" >"$tmp/inherit.txt"
grep -Eq "^  intervals +[1-9]" "$tmp/inherit.txt"
$P phase --help >"$tmp/help"
grep -q "the processes it" "$tmp/help" && grep -q "starts are not sampled" "$tmp/help"

# A process that is not there.
if $P phase -p 999999999 2>"$tmp/err"; then exit 1; fi
grep -qi "999999999\|process" "$tmp/err"
echo "phase_live: ok"
