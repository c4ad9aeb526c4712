#!/usr/bin/env bash
# Smaller faults of pmuscope phase, each checked where it was:
#  - a replay with --interval-event took the 35% threshold whatever its samples per interval
#    (as --help and phase.h say, the settings follow the samples an interval holds);
#  - --min-confidence's default, 0.3, let every table entry through (their confidence is 1/3,
#    2/3 or 1): the default is 0.5 and --help says what the confidence takes;
#  - `phase -e branches` on a machine without PMU suggested --fallback, which phase refused;
#  - the predicted metric's error had no baseline: the program's mean metric so far as the
#    guess, beside the predictors, recomputed here from the CSV, and a predictor worse
#    than it is said to be;
#  - phase.h said the growth multiplier defaults to 2 (it is 1);
#  - a unit test run by hand (PMS_FIXTURES unset, another directory) did not find its fixtures.
# (on_change at the first interval: test_phase_monitor; the monitor's overhead:
# bench/bench-phase-overhead.sh.)
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$PMUSCOPE

# Replay threshold: 20 samples an interval (1 ms samples, 20 ms intervals) give 50%, as
# live and as a replay by samples per interval.
perf record -q -k mono -e cpu-clock/period=1000000/ -e task-clock/period=20000000/ -o "$tmp/p.data" \
  -- "$PMS_WORKLOADS/phases" --sequence AB --ms 60 --repeat 1 >/dev/null 2>"$tmp/perf.err" || { cat "$tmp/perf.err"; exit 1; }
$P phase --interval-event task-clock --json -o "$tmp/iv.json" "$tmp/p.data"
$P phase --samples-per-interval 20 --json -o "$tmp/spi.json" "$tmp/p.data"
for f in iv spi; do
  [ "$(jq .settings.threshold_percent "$tmp/$f.json")" = 50 ] ||
    { echo "FAIL: $f: threshold $(jq .settings.threshold_percent "$tmp/$f.json")%, expected 50 for 20 samples"; exit 1; }
done
$P phase --interval-event task-clock --threshold 35 --json -o "$tmp/given.json" "$tmp/p.data"
[ "$(jq .settings.threshold_percent "$tmp/given.json")" = 35 ]
$P phase --help >"$tmp/help"
grep -q "80 below 8 (7 without a PMU)" "$tmp/help"

# --min-confidence: the default and what confidence takes.
grep -q "least confidence (0..1) to use a table entry (default 0.5); an" "$tmp/help"
grep -q "entry's confidence is 1/3 (seen once), 2/3 or 1" "$tmp/help"
grep -q "default 0.5: an entry seen once" "$PMS_SOURCE_DIR/include/pmuscope/phase.h"

# -e with an event this machine cannot count: the message's advice is an option phase takes.
rc=0
$P phase -q -e branches -o /dev/null -- "$PMS_WORKLOADS/phases" --ms 20 --repeat 1 2>"$tmp/err" || rc=$?
$P phase -q -e branches --fallback -o /dev/null -- "$PMS_WORKLOADS/phases" --ms 20 --repeat 1 2>"$tmp/fb.err"
if [ "$rc" = 0 ]; then
  echo "this machine samples branches: --fallback is accepted and changes nothing"
  ! grep -q "stands in" "$tmp/fb.err"
else
  grep -q "branches: not supported on this machine.*(--fallback)" "$tmp/err" || { cat "$tmp/err"; exit 1; }
  grep -q "warning: cpu-clock stands in for branches (--fallback)" "$tmp/fb.err" || { cat "$tmp/fb.err"; exit 1; }
fi
rc=0
$P phase --fallback "$PMS_FIXTURES/bbv/two.bb" 2>/dev/null || rc=$?
[ "$rc" = 2 ]

# The metric error's baseline: per thread, |mean metric of all earlier intervals - this one's|,
# averaged (the CSV's metric column, ns per sample here).
$P phase -q --csv="$tmp/m.csv" --json -o "$tmp/m.json" -- "$PMS_WORKLOADS/phases" --sequence ABCD --ms 40 --repeat 2
python3 - "$tmp/m.csv" "$tmp/m.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
err, n, seen = 0.0, 0, {}
for r in rows:
    if r["metric"] == "":
        continue
    x, s = float(r["metric"]), seen.setdefault(r["tid"], [0.0, 0])
    if s[1]:
        err += abs(s[0] / s[1] - x)
        n += 1
    s[0] += x
    s[1] += 1
d = json.load(open(sys.argv[2]))["summary"]
want, got = err / n, d["metric_error_baseline"]
# the CSV gives the metric to 10 digits
if abs(want - got) > 1e-5 * got:
    sys.exit("metric error baseline %r, recomputed %r" % (got, want))
print("metric error baseline %.4g (recomputed %.4g); predictors: %s" % (got, want,
      ", ".join("%s %.4g" % (k, v["metric_error"]) for k, v in d["predictors"].items())))
PY
$P phase -q -- "$PMS_WORKLOADS/phases" --sequence ABCD --ms 40 --repeat 2 >"$tmp/m.txt"
grep -Eq "^  program mean +[0-9.e+]+  \(the mean ns/sample so far as every interval's guess" "$tmp/m.txt"
# a predictor's line says when it is worse than the program mean, and only then
awk '/^  program mean/ { base = $3 } /^  (last|markov|ppm|run-length) / { err[$1] = $4; worse[$1] = /worse than the program mean/ }
  END { for (k in err) if ((err[k] + 0 > base + 0) != worse[k]) { print "FAIL: " k " " err[k] " vs " base; bad = 1 }
        exit bad }' "$tmp/m.txt"

# The growth multiplier's default: 1 (fixed intervals) in the header, --help and the JSON.
grep -A1 "double multiplier;" "$PMS_SOURCE_DIR/include/pmuscope/phase.h" | grep -q "default 1: fixed intervals"
! grep -A1 "double multiplier;" "$PMS_SOURCE_DIR/include/pmuscope/phase.h" | grep -q "default 2"
grep -q "(default 1: fixed)" "$tmp/help"
[ "$(jq .settings.interval_multiplier "$tmp/m.json")" = 1 ]

# A unit test run by hand, from elsewhere, without ctest's environment.
(cd / && env -u PMS_FIXTURES "$PMS_BUILD_DIR/tests/test_phase_replay" >"$tmp/unit.out" 2>&1) ||
  { echo "FAIL: test_phase_replay without PMS_FIXTURES:"; tail -5 "$tmp/unit.out"; exit 1; }
echo "phase_faults: ok"
