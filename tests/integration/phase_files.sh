#!/usr/bin/env bash
# pmuscope phase on files: exp-bbv from valgrind (with its PC file), SimPoint .bb written
# and read back, perf.data written by `perf record` with software events (interval
# counts checked against `perf script`), replay bit-for-bit deterministic, bad input.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$PMUSCOPE
F=$PMS_FIXTURES/bbv

# exp-bbv: vectors 1-7 run only first()'s loop, vector 9 only second()'s
$P phase --pc "$F/two.pc" --transition 1 --csv="$tmp/two.csv" "$F/two.bb" >"$tmp/two.txt"
awk -F, 'NR > 1 { p[$1] = $6 } END { for (i = 2; i <= 7; i++) if (p[i] != p[1]) exit 1; exit p[9] == p[1] }' "$tmp/two.csv"
grep -q "^summary of .*two.bb (exp-bbv, 10 vectors" "$tmp/two.txt"
grep -Eq "^  last +[0-9.]+% +[0-9.]+% +- +\(reported in events\)" "$tmp/two.txt"
$P phase --pc "$F/two.pc" --truth functions -q "$F/two.bb" | grep -q "adjusted Rand index"
$P phase --pc "$F/two.pc" --truth functions --csv="$tmp/fn.csv" -q "$F/two.bb" >/dev/null
[ "$(awk -F, 'NR == 3 { print $15 }' "$tmp/fn.csv")" = first ]
[ "$(awk -F, 'NR == 11 { print $15 }' "$tmp/fn.csv")" = second ]

# deterministic: the same bytes twice, in every output form
for form in "" "--json" "--grow 2 --max-interval 4"; do
  # shellcheck disable=SC2086
  $P phase $form --pc "$F/two.pc" --csv="$tmp/a.csv" "$F/two.bb" >"$tmp/a.out"
  # shellcheck disable=SC2086
  $P phase $form --pc "$F/two.pc" --csv="$tmp/b.csv" "$F/two.bb" >"$tmp/b.out"
  cmp "$tmp/a.out" "$tmp/b.out"
  cmp "$tmp/a.csv" "$tmp/b.csv"
done

# JSON parses and has every predictor; SVG and SimPoint .bb are written
$P phase --json --svg "$tmp/t.svg" --write-bb "$tmp/sig.bb" "$F/two.bb" >"$tmp/t.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d["summary"]["predictors"]
assert sorted(p) == ["last","markov","ppm","run-length"], p
assert len(d["intervals"]) == 10 and len(d["intervals"][0]["signature"]) == 32' "$tmp/t.json"
grep -q "<svg" "$tmp/t.svg"
# one T: line per interval, each a normalised signature in parts per million
[ "$(grep -c '^T:' "$tmp/sig.bb")" -eq 10 ]
awk '{ s = 0; n = split($0, f, ":"); for (i = 3; i <= n; i += 2) s += f[i] + 0; if (s < 999980 || s > 1000020) exit 1 }' "$tmp/sig.bb"
$P phase --format simpoint -q "$tmp/sig.bb" | grep -q "SimPoint .bb, 10 vectors"

# perf.data from perf record with software events, cut into intervals by task-clock
if perf record -q -k mono -e cpu-clock/period=200000/u -e task-clock/period=5000000/u -o "$tmp/p.data" \
     "$PMS_WORKLOADS/phases" --units 100 --repeat 1 >/dev/null 2>"$tmp/perf.err"; then
  marks=$(perf script -i "$tmp/p.data" -F event 2>/dev/null | grep -c task-clock)
  samples=$(perf script -i "$tmp/p.data" -F event 2>/dev/null | grep -c cpu-clock)
  all=$(perf script -i "$tmp/p.data" -F event 2>/dev/null | grep -c clock)
  $P phase --interval-event task-clock --csv="$tmp/p1.csv" "$tmp/p.data" >"$tmp/p1.txt"
  $P phase --interval-event task-clock --csv="$tmp/p2.csv" "$tmp/p.data" >"$tmp/p2.txt"
  cmp "$tmp/p1.txt" "$tmp/p2.txt"
  cmp "$tmp/p1.csv" "$tmp/p2.csv"
  n=$(($(wc -l <"$tmp/p1.csv") - 1))
  # perf record counts task-clock per CPU: an interval is every 5 ms / 0.2 ms = 25 cpu-clock
  # samples (as live), exactly. (About one per task-clock mark on an idle machine; on a busy
  # one a cpu-clock timer that fires late takes one sample for several periods, and the
  # marks outnumber the intervals: 29 marks for 629 samples was seen.)
  [ "$n" -eq $(((samples + 24) / 25)) ] ||
    { echo "intervals $n, cpu-clock samples $samples, task-clock marks $marks"; exit 1; }
  [ "$(awk -F, 'NR > 1 { s += $5 } END { print s }' "$tmp/p1.csv")" -eq "$samples" ]
  # without an interval event every sample is an IP sample, 25 to an interval
  $P phase --samples-per-interval 25 --csv="$tmp/p3.csv" -q "$tmp/p.data" >/dev/null
  [ $(($(wc -l <"$tmp/p3.csv") - 1)) -eq $(((all + 24) / 25)) ]
  if $P phase --interval-event instructions "$tmp/p.data" 2>"$tmp/err"; then exit 1; fi
  grep -q "no event named 'instructions' to end the intervals (the file has: cpu-clock" "$tmp/err"
  # A recording with several CPUs (two processes, each pinned to its own CPU, running at
  # once): perf record follows the command with one task-clock count per CPU, and each
  # overflows on its own CPU's share, so its marks fall anywhere in the time-ordered stream
  # (cut on them, intervals held 6 to 46 samples). Replay cuts as live does: each thread's
  # own intervals, every 5 ms / 0.2 ms = 25 of its own cpu-clock samples, exactly, but for
  # its last; with --grow, 25 times the multiple its thread's engine asked for.
  perf record -q -k mono --sample-cpu -e cpu-clock/period=200000/u -e task-clock/period=5000000/u -o "$tmp/t.data" \
    sh -c 'taskset -c 0 "$0" 1 400000000 & taskset -c 1 "$0" 1 400000000; wait' "$PMS_WORKLOADS/threads" \
    >/dev/null 2>"$tmp/perf.err"
  perf script -i "$tmp/t.data" -F event,cpu >"$tmp/t.script" 2>/dev/null
  cpus=$(awk '/cpu-clock/ { print $1 }' "$tmp/t.script" | sort -u | wc -l)
  samples=$(grep -c cpu-clock "$tmp/t.script")
  echo "threads: $samples cpu-clock samples on $cpus CPUs"
  [ "$cpus" -ge 2 ]
  perf script -i "$tmp/t.data" -F tid,event 2>/dev/null | awk '/cpu-clock/ { n[$1]++ } END { for (t in n) print t, n[t] }' |
    sort >"$tmp/per_thread"
  $P phase --interval-event task-clock --csv="$tmp/t.csv" -q "$tmp/t.data" >/dev/null
  # per thread (the tid column): its samples in intervals of 25, the last one partial
  awk -F, 'NR > 1 { t = $NF; n[t]++; s[t] += $5; if (last[t] != "" && last[t] != 25) bad++; last[t] = $5 }
    END { for (t in n) { printf "%s %d\n", t, s[t] > "/dev/stderr"; if (n[t] != int((s[t] + 24) / 25)) bad++ }
          printf "%d threads, %d intervals not of 25 samples before their thread'"'"'s last\n", length(n), bad
          exit !(bad == 0 && length(n) >= 2) }' "$tmp/t.csv" 2>"$tmp/ours"
  sort "$tmp/ours" | diff - "$tmp/per_thread" || { echo "samples per thread differ from perf script's"; exit 1; }
  $P phase --interval-event task-clock --grow 2 --max-interval 4 --csv="$tmp/g.csv" -q "$tmp/t.data" >/dev/null
  awk -F, 'NR > 1 { t = $NF; if (seen[t] && last[t] != 25 * asked[t]) bad++; seen[t] = 1; last[t] = $5
      asked[t] = want[t] ? want[t] : 1; want[t] = $14 }
    END { printf "--grow: %d intervals, %d not of 25 samples times their multiple before their thread'"'"'s last\n", NR - 1, bad
          exit !(bad == 0 && NR > 3) }' "$tmp/g.csv"
else
  echo "perf record failed, perf.data part not run:"; cat "$tmp/perf.err"; exit 1
fi

# bad input: file and line named, exit 1; usage errors exit 2
printf 'T:1:5\nT:2:x\n' >"$tmp/bad.bb"
if $P phase "$tmp/bad.bb" 2>"$tmp/err"; then exit 1; else [ $? -eq 1 ]; fi
grep -q "bad.bb: line 2: column 5: expected an instruction count after block 2" "$tmp/err"
set +e
$P phase --threshold 120 "$F/two.bb" 2>/dev/null; [ $? -eq 2 ] || exit 1
$P phase 2>/dev/null; [ $? -eq 2 ] || exit 1
$P phase --truth functions "$F/two.bb" 2>/dev/null; [ $? -eq 2 ] || exit 1
$P phase "$tmp/missing.bb" 2>"$tmp/err"; [ $? -eq 1 ] || exit 1
set -e
grep -q "cannot open $tmp/missing.bb" "$tmp/err"
grep -q "usage: pmuscope phase" <($P phase --help)
echo "phase_files: ok"
